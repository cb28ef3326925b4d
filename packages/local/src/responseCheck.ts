/**
 * Test stacks only: every answer of the API is checked against the OpenAPI document (DESIGN §10), so a renamed,
 * retyped or undocumented field, status or error code fails the black-box suite that produced it.
 *
 * For each answer of a manifest route: its status must be documented for the route; its content type must be one the
 * document gives for that status (none for a 204 or 302); a JSON body must validate (Ajv, JSON Schema 2020-12) against
 * the document's schema for that status and content type, where objects refuse undocumented fields; an error body's
 * `code` must be one the route documents at that status; and documented required headers (`Location`, `Retry-After`)
 * must be there. Answers of unknown routes (the fallback group) must be the error body.
 *
 * A buffered answer that does not match becomes a 500 `response_undocumented` whose detail lists the mismatches; a
 * streamed one (already on the wire) is only recorded. Every mismatch is kept in {@link ResponseChecker.mismatches},
 * which the test stack's `close()` refuses to end with.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type EndpointGroup, routeKey as keyOf, routes as manifest } from '../../../infra/routes';
import {
  HANDLER_HIGHWATERMARK,
  HANDLER_STREAMING,
  PRELUDE_CONTENT_TYPE,
  type ResponseStream,
} from '../../functions/src/lib/responseStream';
import { bareCode, routeErrors, statusOfDocumented } from '../../functions/src/lib/responses';
import type { RouteDef } from '../../functions/src/lib/route';
import type { ApiDocument } from '../../functions/src/openapi/document';
import { isStreamingHandler } from './awslambda';

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;
type Answer = { statusCode: number; headers: Record<string, string>; body: string };

export interface ResponseChecker {
  /** The mismatches of one answer to a route (`GET /api/home`, or `$default` for unknown routes); empty when it matches. */
  check(routeKey: string, answer: Answer): string[];
  /** Every mismatch seen so far, as `<route> <status>: <problem>`. */
  mismatches: string[];
}

const pointer = (...parts: string[]) => parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/**
 * `value`, or what its local `$ref` (`#/components/...`, the document's shared responses and headers) points at, with
 * the JSON pointer of where it was found (for Ajv).
 */
function followRef(document: object, value: unknown, at: string): { value: any; at: string } {
  const ref = (value as { $ref?: unknown } | undefined)?.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return { value, at };
  const parts = ref.slice(2).split('/');
  const found = parts.reduce<any>((node, part) => node?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], document);
  return followRef(document, found, ref.slice(2));
}
const mediaType = (value: string | undefined) => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** A checker of answers against `document` and the codes each route of `definitions` documents. */
export function createResponseChecker(document: ApiDocument, definitions: Record<string, RouteDef>): ResponseChecker {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
  ajv.addSchema(document as object, 'openapi');
  const validators = new Map<string, ValidateFunction>();
  const validator = (ref: string) => {
    let v = validators.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: `openapi#/${ref}` });
      validators.set(ref, v);
    }
    return v;
  };
  const codes = new Map(
    manifest.map((spec) => {
      const def = definitions[keyOf(spec)] as RouteDef;
      return [keyOf(spec), Object.keys(routeErrors(spec, def)).map((c) => ({ code: bareCode(c), status: statusOfDocumented(c) }))];
    }),
  );
  const mismatches: string[] = [];

  function problemsOf(routeKey: string, answer: Answer): string[] {
    const headers = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    const status = answer.statusCode;
    let json: unknown;
    const parseJson = () => {
      try {
        json = JSON.parse(answer.body);
        return true;
      } catch {
        return false;
      }
    };
    if (routeKey === '$default') {
      if (status < 400 || !parseJson()) return ['an unknown route must answer the error body'];
      const v = validator(pointer('components', 'schemas', 'Error'));
      return v(json) ? [] : [`error body: ${ajv.errorsText(v.errors)}`];
    }
    const [method = '', path = ''] = routeKey.split(' ');
    const documented = (document.paths?.[path] as Record<string, any> | undefined)?.[method.toLowerCase()]?.responses?.[String(status)];
    if (!documented) return [`status ${status} is not documented`];
    const { value: response, at: base } = followRef(
      document,
      documented,
      pointer('paths', path, method.toLowerCase(), 'responses', String(status)),
    );
    const problems: string[] = [];
    for (const [name, given] of Object.entries((response.headers ?? {}) as Record<string, unknown>)) {
      const header = followRef(document, given, '').value as { required?: boolean };
      if (header.required && headers[name.toLowerCase()] === undefined) problems.push(`header ${name} is missing`);
    }
    const content = (response.content ?? {}) as Record<string, unknown>;
    const types = Object.keys(content);
    if (!types.length) {
      if (answer.body) problems.push('a body where the document gives none');
      return problems;
    }
    const type = types.find((t) => mediaType(t) === mediaType(headers['content-type']));
    if (!type) return [...problems, `content type ${headers['content-type']} is not one of ${types.join(', ')}`];
    if (mediaType(type) !== 'application/json') return problems;
    if (!parseJson()) return [...problems, 'the body is not JSON'];
    const v = validator(`${base}/${pointer('content', type, 'schema')}`);
    if (!v(json)) problems.push(`body: ${ajv.errorsText(v.errors)}`);
    // An error answer, unless the route documents a body of its own at this status (health's 503 `{ status }`).
    const ownBody =
      definitions[routeKey]?.responses[status] !== undefined && !(typeof json === 'object' && json !== null && Object.hasOwn(json, 'code'));
    if (status >= 400 && !ownBody) {
      const code = (json as { code?: unknown }).code;
      if (!codes.get(routeKey)?.some((c) => c.code === code && c.status === status))
        problems.push(`error code ${String(code)} is not documented`);
    }
    return problems;
  }

  return {
    mismatches,
    check(routeKey, answer) {
      const problems = problemsOf(routeKey, answer).map((p) => `${routeKey} ${answer.statusCode}: ${p}`);
      mismatches.push(...problems);
      return problems;
    },
  };
}

/** `handler` with every buffered answer checked (see the module doc). */
function checkedBuffered(handler: Handler, checker: ResponseChecker): Handler {
  return async (event, context) => {
    const result = await handler(event, context);
    const answer = {
      statusCode: result.statusCode ?? 200,
      // API Gateway v2 carries Set-Cookie in `cookies`.
      headers: {
        ...(result.headers as Record<string, string>),
        ...(result.cookies?.length ? { 'set-cookie': result.cookies.join(', ') } : {}),
      },
      body: result.body === undefined ? '' : result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body,
    };
    const problems = checker.check(event.routeKey, answer);
    if (!problems.length) return result;
    console.error(`answer differs from the API document: ${problems.join('; ')}`);
    return {
      statusCode: 500,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store' },
      body: JSON.stringify({ code: 'response_undocumented', detail: `The answer differs from the API document: ${problems.join('; ')}` }),
    };
  };
}

/** A streaming handler whose prelude and body are captured and checked once it finished (see the module doc). */
function checkedStreaming(handler: Handler, checker: ResponseChecker, routeOf: (event: APIGatewayProxyEventV2) => string): Handler {
  const fn = handler as unknown as (event: unknown, stream: ResponseStream, context: Context) => Promise<unknown>;
  const wrapped = async (event: APIGatewayProxyEventV2, stream: ResponseStream, context: Context) => {
    const prelude: Buffer[] = [];
    const body: Buffer[] = [];
    const write = stream._write.bind(stream);
    stream._write = (chunk, encoding, callback) => {
      const hook = stream._onBeforeFirstWrite;
      if (hook && !prelude.length && stream.contentType === PRELUDE_CONTENT_TYPE) {
        stream._onBeforeFirstWrite = (raw) =>
          hook((c) => {
            prelude.push(Buffer.from(c));
            raw(c);
          });
      }
      body.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : Buffer.from(chunk));
      write(chunk, encoding, callback);
    };
    const result = await fn(event, stream, context);
    const head = JSON.parse(Buffer.concat(prelude).toString('utf8').split('\0')[0] || '{}') as Partial<Answer>;
    const answer = { statusCode: head.statusCode ?? 200, headers: head.headers ?? {}, body: Buffer.concat(body).toString('utf8') };
    const problems = checker.check(routeOf(event), answer);
    if (problems.length) console.error(`streamed answer differs from the API document: ${problems.join('; ')}`);
    return result;
  };
  const marked = wrapped as unknown as Record<symbol, unknown>;
  marked[HANDLER_STREAMING] = (handler as unknown as Record<symbol, unknown>)[HANDLER_STREAMING];
  marked[HANDLER_HIGHWATERMARK] = (handler as unknown as Record<symbol, unknown>)[HANDLER_HIGHWATERMARK];
  return wrapped as unknown as Handler;
}

/**
 * Every group's handler with its answers checked. `routeOf` names the manifest route of a streamed request (its
 * function URL event carries `$default`).
 */
export function withResponseCheck(
  handlers: Record<EndpointGroup, Handler>,
  checker: ResponseChecker,
  routeOf: (event: APIGatewayProxyEventV2) => string,
): Record<EndpointGroup, Handler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([group, handler]) => [
      group,
      isStreamingHandler(handler) ? checkedStreaming(handler, checker, routeOf) : checkedBuffered(handler, checker),
    ]),
  ) as Record<EndpointGroup, Handler>;
}
