/**
 * Bridges Node's HTTP server and the Lambda handlers the stacks deploy: builds API Gateway HTTP API
 * payload v2.0 events (the shape API Gateway sends) and writes the handler's structured result back.
 * Reference: AWS "Working with AWS Lambda proxy integrations for HTTP APIs", payload format 2.0.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

/** Reads the whole request body; stops reading past `limit` bytes (the handler then answers 413). */
export async function readBody(req: IncomingMessage, limit = 10 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) break;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

const isText = (contentType: string | undefined) =>
  !contentType || /^(application\/(json|x-www-form-urlencoded|[a-z.+-]*\+json)|text\/)/i.test(contentType);

/**
 * The v2 event for `req`. `routeKey` is the manifest route (`GET /api/home`) or `$default`;
 * `pathParameters` are decoded the way API Gateway decodes them.
 */
export function toEvent(
  req: IncomingMessage,
  body: Buffer,
  match: { routeKey: string; pathParameters?: Record<string, string> },
): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
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

/** Writes a structured v2 result (status, headers, cookies, body, base64) to `res`. */
export function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string | undefined): void {
  if (typeof result === 'string' || result === undefined) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(result ?? '');
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode ?? 200, headers);
  if (result.body === undefined) res.end();
  else res.end(result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body);
}
