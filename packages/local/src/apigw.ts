/**
 * Bridges Node's HTTP server and the Lambda handlers the stacks deploy: builds API Gateway HTTP API
 * payload v2.0 events (the shape API Gateway sends) and writes the handler's structured result back.
 * Reference: AWS "Working with AWS Lambda proxy integrations for HTTP APIs", payload format 2.0.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** The largest request body the local server reads: API Gateway HTTP APIs' payload limit (10 MB). */
export const MAX_REQUEST_BODY_BYTES = 10 * 1024 * 1024;
/** How long a request body may take to arrive before the server gives up on it (408), ms: within 30 s (DESIGN §11). */
export const BODY_TIMEOUT_MS = 20_000;

/** A request body the server will not read: 413 `body_too_large` or 408 `request_timeout` (DESIGN §3, §11). */
export class BodyRefused extends Error {
  constructor(
    readonly status: 413 | 408,
    readonly code: 'body_too_large' | 'request_timeout',
    readonly detail: string,
  ) {
    super(detail);
    this.name = 'BodyRefused';
  }
}

const NO_BODY = Buffer.alloc(0);

/**
 * Reads the whole request body. Errors: {@link BodyRefused} 413 as soon as the body (its Content-Length, or what has
 * arrived) is over `limit` bytes, and 408 when it has not all arrived within `timeoutMs`; in both cases the request
 * is paused, nothing more is read. A connection that breaks meanwhile rejects with its error.
 */
export function readBody(req: IncomingMessage, options: { limit?: number; timeoutMs?: number } = {}): Promise<Buffer> {
  // HTTP/1.1 framing (RFC 9112 §6.3): a request with neither Content-Length nor Transfer-Encoding has no body, so
  // there is nothing to wait for (the server drains the message itself once the response is written).
  if (req.headers['transfer-encoding'] === undefined && (req.headers['content-length'] ?? '0') === '0') return Promise.resolve(NO_BODY);
  const limit = options.limit ?? MAX_REQUEST_BODY_BYTES;
  const tooLarge = () => new BodyRefused(413, 'body_too_large', `The body is larger than ${limit} bytes`);
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.pause();
    return Promise.reject(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (outcome: () => void) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onError).off('aborted', onAborted);
      outcome();
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else {
        req.pause();
        stop(() => reject(tooLarge()));
      }
    };
    const onEnd = () => stop(() => resolve(Buffer.concat(chunks)));
    const onError = (error: Error) => stop(() => reject(error));
    const onAborted = () => stop(() => reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })));
    const timer = setTimeout(() => {
      req.pause();
      stop(() => reject(new BodyRefused(408, 'request_timeout', 'The request body took too long to arrive')));
    }, options.timeoutMs ?? BODY_TIMEOUT_MS);
    req.on('data', onData).on('end', onEnd).on('error', onError).on('aborted', onAborted);
  });
}

const isText = (contentType: string | undefined) =>
  !contentType || /^(application\/(json|x-www-form-urlencoded|[a-z.+-]*\+json)|text\/)/i.test(contentType);

/**
 * The v2 event for `req`. `routeKey` is the manifest route (`GET /api/home`) or `$default`;
 * `pathParameters` are decoded the way API Gateway decodes them. `url` is `req.url` parsed, when the caller has it.
 */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  match: { routeKey: string; pathParameters?: Record<string, string> },
  url: URL = new URL(req.url ?? '/', 'http://localhost'),
): APIGatewayProxyEventV2 {
  const headerMap = new Map<string, string>();
  const cookies: string[] = [];
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    if (name === 'cookie') cookies.push(...String(value).split(/;\s*/).filter(Boolean));
    else headerMap.set(name, Array.isArray(value) ? value.join(',') : value);
  }
  // Names are data (a header or parameter called `__proto__` or `constructor` is just one): collected in a Map
  // and turned into own properties by Object.fromEntries, never assigned onto an object's prototype chain.
  const queryMap = new Map<string, string>();
  for (const [k, v] of url.searchParams) queryMap.set(k, queryMap.has(k) ? `${queryMap.get(k)},${v}` : v);
  const headers: Record<string, string> = Object.fromEntries(headerMap);
  const query: Record<string, string> = Object.fromEntries(queryMap);
  const text = isText(headers['content-type']);
  const now = new Date();
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  return {
    version: '2.0',
    routeKey: match.routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    ...(cookies.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(match.pathParameters ? { pathParameters: match.pathParameters } : {}),
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp,
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: match.routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !text,
  };
}

/** A Lambda context good enough for handlers run in-process. */
export function lambdaContext(functionName: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Statuses whose response has no body, so no Content-Length either (RFC 9110 §8.6). */
const BODYLESS = (status: number) => status < 200 || status === 204 || status === 304;

/**
 * Writes a structured v2 result (status, headers, cookies, body, base64) to `res` with its `Content-Length`, as
 * API Gateway answers a buffered integration (never chunked), unless the handler set one.
 */
export function writeResult(res: ServerResponse, answer: APIGatewayProxyStructuredResultV2 | string | undefined): void {
  // API Gateway's reading of a bare result: a 200 with it as the JSON body.
  const result: APIGatewayProxyStructuredResultV2 =
    typeof answer === 'string' || answer === undefined
      ? { statusCode: 200, headers: { 'content-type': 'application/json' }, body: answer ?? '' }
      : answer;
  const status = result.statusCode ?? 200;
  const body =
    result.body === undefined || BODYLESS(status) ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8');
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  if (!BODYLESS(status) && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-length')) {
    headers['content-length'] = String(body?.length ?? 0);
  }
  res.writeHead(status, headers);
  res.end(body);
}
