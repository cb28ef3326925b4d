/**
 * The local HTTP server: one port for the whole service (DESIGN §1, §6).
 *
 * - `/api/...`: matched against `infra/routes.ts`; the matching endpoint group's exported Lambda handler is
 *   called with an API Gateway v2 event; no match goes to the `fallback` group (`$default`), as in AWS.
 * - A streamed group (the tutor, `stream: true` in the manifest) is invoked the way its Lambda function URL in
 *   RESPONSE_STREAM mode invokes it: a function URL event (route key `$default`) and a response stream whose
 *   prelude and chunks are written to the connection as they come (`awslambda.ts`, installed here as the global
 *   `awslambda` before any handler module loads).
 * - `/_local/...`: the provider fakes (never deployed).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Deps } from '@mathisland/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { type EndpointGroup, endpointGroups, routeKey, routePattern, routes } from '../../../infra/routes';
import { lambdaContext, readBody, toEvent, writeResult } from './apigw';
import { installAwsLambdaShim, invokeStreaming, isStreamingHandler } from './awslambda';

installAwsLambdaShim();

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A sub-application mounted under a path prefix (a fake provider). Returns false when it has no such route. */
export type Mount = (req: IncomingMessage, res: ServerResponse, rest: string, url: URL, body: Buffer) => boolean | Promise<boolean>;

const compiled = routes.map((r) => ({
  spec: r,
  key: routeKey(r),
  regex: routePattern(r.path),
}));

/** The manifest route for `method` and `path`, with decoded path parameters. */
export function matchRoute(method: string, path: string) {
  for (const r of compiled) {
    if (r.spec.method !== method) continue;
    const m = r.regex.exec(path);
    if (!m) continue;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries(m.groups ?? {})) {
      try {
        params[k] = decodeURIComponent(v);
      } catch {
        params[k] = v;
      }
    }
    return { group: r.spec.group, routeKey: r.key, pathParameters: Object.keys(params).length ? params : undefined };
  }
  return undefined;
}

interface GroupModule {
  handler: Handler;
  /** The group's pipeline on other dependencies (every group but `fallback`, which needs none). */
  createHandler?: (getDeps: () => Promise<Deps>) => Handler;
}

/**
 * The handler of every endpoint group (the same modules the stacks deploy), each built on `getDeps`: this
 * stack's own dependencies, so two stacks in one process never share them.
 */
export async function loadHandlers(getDeps: () => Promise<Deps>): Promise<Record<EndpointGroup, Handler>> {
  const entries = await Promise.all(
    endpointGroups.map(async (group) => {
      const mod = (await import(`../../functions/src/groups/${group}.ts`)) as GroupModule;
      return [group, mod.createHandler ? mod.createHandler(getDeps) : mod.handler] as const;
    }),
  );
  return Object.fromEntries(entries) as Record<EndpointGroup, Handler>;
}

/** Status, code and detail of the answer to a request Node's HTTP parser refused (see {@link answerClientError}). */
function clientErrorAnswer(code: string | undefined): { status: number; reason: string; code: string; detail: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      status: 431,
      reason: 'Request Header Fields Too Large',
      code: 'headers_too_large',
      detail: 'The request headers are too large',
    };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT' || code === 'ERR_HTTP_HEADERS_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'request_timeout', detail: 'The request took too long to arrive' };
  }
  return { status: 400, reason: 'Bad Request', code: 'bad_request', detail: 'The request is not valid HTTP/1.1' };
}

/**
 * Answers a request Node's HTTP parser refused (bad request line, bad header, headers over the size limit,
 * bad chunked encoding, a request that never finished arriving) with the service's JSON error body (DESIGN §3,
 * §7), written as a raw HTTP/1.1 response because there is no request or response object yet, then closes the
 * connection. A connection already reset, or one whose response has started, is just closed. In AWS, API
 * Gateway answers such requests itself; this keeps the local runtime from answering them with an empty body.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  const responding = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
  if (error.code === 'ECONNRESET' || !socket.writable || responding) {
    socket.destroy();
    return;
  }
  const answer = clientErrorAnswer(error.code);
  const body = JSON.stringify({ code: answer.code, detail: answer.detail });
  socket.end(
    `HTTP/1.1 ${answer.status} ${answer.reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      'Cache-Control: private, no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

export function createLocalServer(options: {
  handlers: Record<EndpointGroup, Handler>;
  mounts: Record<string, Mount>;
  /** Resolves when the dependencies are ready; requests wait for it. */
  ready: Promise<unknown>;
}): Server {
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const body = await readBody(req);
      for (const [prefix, mount] of Object.entries(options.mounts)) {
        if (url.pathname === prefix || url.pathname.startsWith(`${prefix}/`)) {
          if (await mount(req, res, url.pathname.slice(prefix.length) || '/', url, body)) return;
        }
      }
      await options.ready;
      const match = matchRoute(req.method ?? 'GET', url.pathname);
      const group = match?.group ?? 'fallback';
      const handler = options.handlers[group];
      if (isStreamingHandler(handler)) {
        await invokeStreaming(handler, toEvent(req, body, { routeKey: '$default' }), lambdaContext(group), res);
        return;
      }
      const event = toEvent(req, body, match ?? { routeKey: '$default' });
      const result = await handler(event, lambdaContext(group));
      writeResult(res, result);
    } catch (error) {
      // A request whose connection broke while its body arrived (answered by answerClientError, or gone).
      if (req.destroyed && !res.headersSent && (error as NodeJS.ErrnoException).code === 'ECONNRESET') return;
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json', 'cache-control': 'private, no-store' });
        res.end(JSON.stringify({ code: 'server_error', detail: 'Something went wrong on our side' }));
      }
      console.error(error);
    }
  });
  server.on('clientError', answerClientError);
  return server;
}
