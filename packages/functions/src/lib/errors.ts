/**
 * The edge's mapping from errors to HTTP (DESIGN §3): every failure becomes
 * `{ code, detail, fields? }` with the status of its code; 429/503 carry `Retry-After`. Unexpected
 * exceptions become 500 `server_error` and their stack goes only to the log.
 */
import { DomainError, logger } from '@mathisland/core';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** HTTP status of each error code. A code missing here is a 400. */
export const statusOfCode: Record<string, number> = {
  validation_error: 400,
  invalid_id: 400,
  invalid_json: 400,
  not_authenticated: 401,
  token_invalid: 401,
  otp_invalid: 401,
  permission_denied: 403,
  forbidden_origin: 403,
  node_locked: 403,
  no_hearts: 403,
  not_found: 404,
  method_not_allowed: 405,
  answers_missing: 409,
  already_paid: 409,
  idempotency_conflict: 409,
  body_too_large: 413,
  throttled: 429,
  ai_quota_exceeded: 429,
  server_error: 500,
  assistant_busy: 503,
  database_busy: 503,
  sms_unavailable: 503,
  gateway_unavailable: 503,
  marketplace_unavailable: 503,
  discount_invalid: 400,
  order_status_conflict: 409,
  discount_not_allowed: 409,
  referrer_already_set: 409,
  assistant_unavailable: 503,
  marketplace_sku_missing: 400,
  purchase_invalid: 400,
  purchase_token_used: 409,
  authorization_window_closed: 403,
  authorization_invalid: 400,
  marketplace_oauth_not_configured: 409,
  sku_taken: 409,
  plan_has_orders: 409,
  code_taken: 409,
  discount_code_used: 409,
  username_taken: 409,
  parent_not_pending: 409,
};

/**
 * Statuses of a code refined by the error's `reason` (`code/reason`): the same refusal code for a request that can
 * never succeed (400) and one that conflicts with the resource's state (the code's own status).
 */
export const statusOfReason: Record<string, number> = {
  // DESIGN §8: a discount on a marketplace order is 400 (another order's code or a started gateway step stays 409).
  'discount_not_allowed/marketplace': 400,
};

/** The HTTP status of a domain error (a code missing from the tables is a 400). */
export const statusOf = (error: DomainError): number =>
  (error.extra.reason ? statusOfReason[`${error.code}/${error.extra.reason}`] : undefined) ?? statusOfCode[error.code] ?? 400;

export interface ErrorBody {
  code: string;
  detail: string;
  fields?: Record<string, string[]>;
}

export function errorResponse(status: number, body: ErrorBody, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return { statusCode: status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(body) };
}

/** The response for any thrown value. */
export function toErrorResponse(error: unknown): APIGatewayProxyStructuredResultV2 {
  if (error instanceof DomainError) {
    const status = statusOf(error);
    const headers: Record<string, string> = error.extra.retryAfter ? { 'retry-after': String(error.extra.retryAfter) } : {};
    return errorResponse(
      status,
      { code: error.code, detail: error.detail, ...(error.extra.fields ? { fields: error.extra.fields } : {}) },
      headers,
    );
  }
  const http = error as { cause?: { package?: string } } | undefined;
  if (http?.cause?.package === '@middy/http-router') {
    return errorResponse(404, { code: 'not_found', detail: 'No such route' });
  }
  logger.error('unhandled error', error as Error);
  return errorResponse(500, { code: 'server_error', detail: 'Something went wrong on our side' });
}
