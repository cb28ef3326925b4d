/**
 * Route definitions: what one route of an endpoint group reads, who may call it and what it runs. The input a
 * handler receives is typed by the route's auth kind (a `user` route always has `user`, an `admin` route
 * `staff`) and by its zod schemas (body, query), so a handler reads typed input and calls one domain function:
 *
 *   'GET /api/home': route.user({ query: HomeQuery, run: showHome }),
 *
 * The same definitions feed the middleware pipeline (`group.ts`), the contract tests and the API description: each
 * route declares what it answers (`responses`: status → zod schema, `errors`: the codes beyond those its kind
 * implies; `responses.ts`), from which `openapi/document.ts` builds the OpenAPI document and against which the test
 * stacks check every real answer. The auth kind must equal the one `infra/routes.ts` gives the route (its AuthKind;
 * checked when the group is built).
 *
 * A group file declares its schemas wrapped, so that a cold start builds none of them (issue 30 §5): a body or
 * query as `lazySchema(() => z.strictObject(...))` (built at the route's first request), a response shape as
 * `responseShape(() => ...)` (built only by the API description); tests/coldImport.test.ts holds this.
 */
import type { Deps } from '@mathisland/core';
import type { Permission, Staff } from '@mathisland/core/admin';
import type { User } from '@mathisland/core/auth';
import type { CountingDeps } from '@mathisland/core/throttle';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type { ZodObject, ZodType } from 'zod';
import type { ErrorDocs, Examples, Responses } from './responses';
import type { Viewer } from './viewer';

/** What every handler receives. */
export interface RouteInput<B, Q> {
  event: APIGatewayProxyEventV2;
  /** The parsed body (the route's `body` schema; `undefined` for routes without one). */
  body: B;
  /** The parsed query string (the route's `query` schema; raw strings for routes without one). */
  query: Q;
  /** The `{id}` path parameter, an ASCII decimal id (NaN on routes without one). */
  id: number;
  deps: Deps;
  /** The viewer's IP address, from CloudFront-Viewer-Address (`unknown` without one; DESIGN §12). */
  clientIp: string;
  /** The viewer: that address and the key per-address limits count it by (an IPv6 address by its /64). */
  viewer: Viewer;
}

/** Input of a `user` route: the signed-in learner. */
export type UserInput<B, Q> = RouteInput<B, Q> & { user: User };
/**
 * Input of a route flagged `throttleInTransaction`: its `deps` carry the request's throttle ticket, which only such a
 * route has, and which the use cases that count in their own transaction require (`CountingDeps`).
 */
export type Counting<I> = I & { deps: CountingDeps };
/** The input of a route flagged (`C` true) or not by `throttleInTransaction`. */
type Flagged<I, C extends boolean> = C extends true ? Counting<I> : I;
/** Input of an `admin` route: the signed-in staff member (who holds the route's permission). */
export type AdminInput<B, Q> = RouteInput<B, Q> & { staff: Staff };

type RawQuery = Record<string, string | undefined>;

/** Options every route may set. */
export interface RouteOptions<B, Q> {
  /** Body schema; unknown fields must be refused (use z.strictObject). Without it only an empty body or `{}` is accepted. */
  body?: ZodType<B>;
  /** Query schema; without it the raw query strings are passed through. */
  query?: ZodType<Q>;
  /** Largest accepted body, bytes (default 64 KiB, `jsonBody`); larger bodies are 413 `body_too_large`. */
  maxBodyBytes?: number;
  /** Success status when the handler returns a plain value (default 200). */
  status?: number;
  /**
   * What the route answers on success, by status: a zod schema (a JSON body) or a `ResponseSpec` (no body, another
   * content type, headers, an example). Documented in the OpenAPI document; the test stacks refuse any other answer.
   */
  responses: Responses;
  /** Error codes (or `code/reason`) the route answers beyond those its kind implies (`impliedErrors`), each with when. */
  errors?: ErrorDocs;
  /** A longer description for the API document (Markdown); the manifest's `summary` is the one-line title. */
  description?: string;
  /** Named example request bodies for the API document (a main flow's typical requests). */
  bodyExamples?: Examples;
  /** Request headers the route reads besides auth (e.g. `Idempotency-Key`), for the API document; the handler checks them. */
  headers?: ZodObject;
  /**
   * The route's domain function counts its throttle hit inside its own transaction (`transactCounting` of
   * `@mathisland/core/throttle`, issue 15): one DynamoDB request less per call that writes. A call that writes
   * nothing (an error, a replay) is counted by the middleware afterwards, so it costs that request back. Only a
   * flagged route's handler gets `deps` with the ticket ({@link Counting}), which a counting use case requires: an
   * unflagged route calling one does not compile; a flagged route whose call counts nothing fails
   * tests/throttle.test.ts ("every route flagged...").
   */
  throttleInTransaction?: boolean;
}

/** A route's options with its handler typed by the flag `C` (see {@link RouteOptions.throttleInTransaction}). */
type Def<I, B, Q, C extends boolean> = RouteOptions<B, Q> & { throttleInTransaction?: C; run: Handler<Flagged<I, C>> };

type Handler<I> = (input: I) => Promise<unknown>;

export type RouteDef =
  | (RouteOptions<unknown, unknown> & { auth: 'none' | 'internal'; run: Handler<RouteInput<any, any>> })
  | (RouteOptions<unknown, unknown> & { auth: 'user'; run: Handler<UserInput<any, any>> })
  | (RouteOptions<unknown, unknown> & { auth: 'admin'; permission?: Permission; run: Handler<AdminInput<any, any>> });

/** Declares route implementations, one function per auth kind (`infra/routes.ts` AuthKind). */
export const route = {
  /** Anyone may call it (`auth: 'none'`). */
  public: <B = undefined, Q = RawQuery, C extends boolean = false>(def: Def<RouteInput<B, Q>, B, Q, C>): RouteDef =>
    ({ auth: 'none', ...def }) as RouteDef,
  /** A signed-in learner (`Authorization: Bearer <accessToken>`). */
  user: <B = undefined, Q = RawQuery, C extends boolean = false>(def: Def<UserInput<B, Q>, B, Q, C>): RouteDef =>
    ({ auth: 'user', ...def }) as RouteDef,
  /** A signed-in staff member holding `permission` when one is given (403 `permission_denied` otherwise). */
  admin: <B = undefined, Q = RawQuery, C extends boolean = false>(
    def: Def<AdminInput<B, Q>, B, Q, C> & { permission?: Permission },
  ): RouteDef => ({ auth: 'admin', ...def }) as RouteDef,
  /** Service-to-service: header `X-Internal-Key` equal to INTERNAL_SERVICE_KEY (closed in debug mode). */
  internal: <B = undefined, Q = RawQuery, C extends boolean = false>(def: Def<RouteInput<B, Q>, B, Q, C>): RouteDef =>
    ({ auth: 'internal', ...def }) as RouteDef,
};
