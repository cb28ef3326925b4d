/** Types shared by the handlers of every endpoint group. */
import type { Deps } from '@mathisland/core';
import type { Staff, StaffPermission } from '@mathisland/core/admin/index';
import type { User } from '@mathisland/core/auth/index';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { ZodType } from 'zod';

/** The Lambda context, with what the auth middleware learnt (read by the request log). */
export interface AppContext extends Context {
  userId?: number;
  /** The signed-in staff member's username, on `admin` routes. */
  staff?: string;
}

/** What a route implementation receives: parsed input, the caller, and the dependencies. */
export interface RouteInput<B, Q> {
  event: APIGatewayProxyEventV2;
  body: B;
  query: Q;
  /** The `{id}` path parameter, validated as an ASCII decimal id. */
  id: number;
  /** The signed-in user, on `user` routes. */
  user: User;
  /** The signed-in staff member, on `admin` routes. */
  staff: Staff;
  deps: Deps;
  /** Client IP as API Gateway saw it. */
  clientIp: string;
}

/** A non-200 or non-JSON answer of a route; `cookies` are Set-Cookie values (API Gateway v2 `cookies`). */
export class HttpResponse {
  constructor(
    readonly statusCode: number,
    readonly body?: unknown,
    readonly headers: Record<string, string> = {},
    readonly cookies: string[] = [],
  ) {}
}

export interface RouteDef<B = unknown, Q = unknown> {
  /** Body schema; unknown fields must be refused (use z.strictObject). Without it only an empty body or `{}` is accepted. */
  body?: ZodType<B>;
  query?: ZodType<Q>;
  /** Largest accepted body, bytes (default 64 KiB, `jsonBody`); larger bodies are 413 `body_too_large`. */
  maxBodyBytes?: number;
  /** Success status when `run` returns a plain value (default 200). */
  status?: number;
  /** On `admin` routes: the staff permission the route needs (403 `permission_denied` without it). */
  permission?: StaffPermission;
  run(input: RouteInput<B, Q>): Promise<unknown>;
}

export type GroupResult = APIGatewayProxyStructuredResultV2;
