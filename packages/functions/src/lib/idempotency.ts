/**
 * The `Idempotency-Key` header (DESIGN §3 Idempotency; docs/decisions.md "Idempotency-Key"): its pattern, reading it
 * from a request, its OpenAPI description and the `Idempotent-Replayed` header of a replayed answer. Required on a
 * purchase, optional on the support tickets' POSTs; what a key means is each domain's (core `subscriptions/purchase.ts`,
 * `support/tickets.ts`).
 */

import { DomainError } from '@mathisland/core';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { HttpResponse, header } from './http';

/** `Idempotency-Key`: 8-128 of A-Z a-z 0-9 _ . : - (a UUID fits). */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_.:-]{8,128}$/;
const RULE = '8 to 128 of A-Z a-z 0-9 _ . : -';

/**
 * The request's `Idempotency-Key`: undefined without one unless `required`. Errors: `validation_error` naming the
 * header (`fields['Idempotency-Key']`) when it is malformed, or missing and required.
 */
export function idempotencyKeyOf(event: APIGatewayProxyEventV2, options: { required: true }): string;
export function idempotencyKeyOf(event: APIGatewayProxyEventV2, options?: { required?: boolean }): string | undefined;
export function idempotencyKeyOf(event: APIGatewayProxyEventV2, options: { required?: boolean } = {}): string | undefined {
  const value = header(event, 'idempotency-key');
  if (value !== undefined && IDEMPOTENCY_KEY.test(value)) return value;
  if (value === undefined && !options.required) return undefined;
  throw new DomainError('validation_error', `The Idempotency-Key header is ${value === undefined ? 'missing' : 'not valid'}`, {
    fields: { 'Idempotency-Key': [value === undefined ? 'required' : RULE] },
  });
}

/** The header's schema for a route's `headers` (OpenAPI), with `description`. */
export const idempotencyKeyHeader = (description: string, options: { required: boolean }) => {
  const key = z.string().regex(IDEMPOTENCY_KEY);
  return z.object({
    'Idempotency-Key': (options.required ? key : key.optional()).meta({ description, example: 'b7e1c1de-4f0e-4d1a-9a57-2a3f0f9e1c11' }),
  });
};

/** The `Idempotent-Replayed` response header of a route's OpenAPI answer. */
export const replayedHeader = {
  'Idempotent-Replayed': { schema: z.literal('true'), description: 'Present on a replayed answer', required: false },
};

/** A 201 answer of `body`, marked `Idempotent-Replayed: true` when it replays an earlier request's. */
export const created201 = (body: unknown, replayed: boolean): HttpResponse =>
  new HttpResponse(201, body, replayed ? { 'idempotent-replayed': 'true' } : {});
