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
 * - `/admin/...`: the staff panel, the built SPA of `packages/admin/dist/admin` ({@link adminSite}); in AWS the Web
 *   stack's StaticSite serves the same files (behind the stage's CloudFront domain).
 *
 * The server plays the edge (DESIGN §12; {@link playTheEdge}): every request gets the secret origin header and
 * `CloudFront-Viewer-Address` from its socket, as CloudFront gives them, so the functions run the same code as in
 * AWS. A server made with `edge: false` does not: it is the bare origin (the execute-api host), where only a caller
 * holding the secret gets in.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, resolve, sep } from 'node:path';
import type { Duplex } from 'node:stream';
import type { Deps } from '@mathisland/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { ADMIN_SECURITY_HEADERS, ORIGIN_VERIFY_HEADER, VIEWER_ADDRESS_HEADER } from '../../../infra/edge';
import { type EndpointGroup, endpointGroups, routeKey, routePattern, routes } from '../../../infra/routes';
import { viewerAddressHeader } from '../../functions/src/lib/viewer';
import { BodyRefused, lambdaContext, readBody, toEvent, writeResult } from './apigw';
import { installAwsLambdaShim, invokeStreaming, isStreamingHandler } from './awslambda';

installAwsLambdaShim();

type Handler = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

/** A sub-application mounted under a path prefix (a fake provider). Returns false when it has no such route. */
export type Mount = (req: IncomingMessage, res: ServerResponse, rest: string, url: URL, body: Buffer) => boolean | Promise<boolean>;

// As API Gateway, the most specific route wins: fewer path variables first (`GET /api/admin/tickets/export.csv`
// before `GET /api/admin/tickets/{id}`), the manifest's order among equals.
const variables = (path: string) => path.split('{').length;
const compiled = [...routes]
  .sort((a, b) => variables(a.path) - variables(b.path))
  .map((r) => ({
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
  /** The group's pipeline on other dependencies. */
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

/**
 * What CloudFront does to a request on its way to the API or the tutor (DESIGN §12): whatever the client sent as
 * `x-origin-verify` or `CloudFront-Viewer-Address` is dropped, and the edge's own are set: the origin secret
 * `originSecret`, and the socket's peer as `ip:port` (an IPv4-mapped address as plain IPv4, IPv6 unbracketed).
 * `X-Forwarded-For` is left as the client sent it: nothing trusts it.
 */
export function playTheEdge(req: IncomingMessage, originSecret: string): void {
  delete req.headers[ORIGIN_VERIFY_HEADER];
  delete req.headers[VIEWER_ADDRESS_HEADER];
  req.headers[ORIGIN_VERIFY_HEADER] = originSecret;
  req.headers[VIEWER_ADDRESS_HEADER] = viewerAddressHeader(req.socket.remoteAddress?.replace(/^::ffff:/, ''), req.socket.remotePort);
}

/**
 * Answers a request whose body the server refused (413 over the limit, 408 stalled) with the service's JSON error
 * body, then closes the connection: what is left of the body is never read, and the server goes on serving others.
 */
function refuseBody(req: IncomingMessage, res: ServerResponse, refused: BodyRefused): void {
  if (!res.headersSent) {
    const body = JSON.stringify({ code: refused.code, detail: refused.detail });
    res.writeHead(refused.status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'private, no-store',
      'x-content-type-options': 'nosniff',
      'content-length': String(Buffer.byteLength(body)),
      connection: 'close',
    });
    res.end(body);
  }
  res.once('finish', () => req.socket.destroySoon());
}

export function createLocalServer(options: {
  handlers: Record<EndpointGroup, Handler>;
  mounts: Record<string, Mount>;
  /** Resolves when the dependencies are ready; requests wait for it. */
  ready: Promise<unknown>;
  /** The origin header's value the edge adds (ORIGIN_VERIFY_SECRET). */
  originSecret: string;
  /** Play the edge ({@link playTheEdge}; default true); false: the bare origin, requests reach the functions as sent. */
  edge?: boolean;
}): Server {
  // Headers must arrive within 20 s and a whole request within 30 s (the body: BODY_TIMEOUT_MS, answered 408 JSON);
  // Node checks its own limits every 5 s instead of every 30 s.
  const server = createServer({ headersTimeout: 20_000, requestTimeout: 30_000, connectionsCheckingInterval: 5_000 }, async (req, res) => {
    try {
      if (options.edge !== false) playTheEdge(req, options.originSecret);
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
        await invokeStreaming(handler, toEvent(req, body, { routeKey: '$default' }, url), lambdaContext(group), res);
        return;
      }
      const event = toEvent(req, body, match ?? { routeKey: '$default' }, url);
      const result = await handler(event, lambdaContext(group));
      writeResult(res, result);
    } catch (error) {
      if (error instanceof BodyRefused) return refuseBody(req, res, error);
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

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** Vite's hashed output (`assets/index-BjXgc8cI.js`): its name changes with its content, so it may be kept a year. */
const HASHED_ASSET = /^\/assets\/[^/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+$/;

/**
 * The staff panel's files (the SPA built into `distDir`) under `/admin/`:
 * - a file of the build with its content type; hashed assets `Cache-Control: public, max-age=31536000, immutable`,
 *   anything else (index.html above all, which names the current assets) `no-cache`;
 * - any other path that is no asset (a deep link such as `/admin/orders/5/show`) gets `index.html`, and the SPA's
 *   router shows the page; a missing asset (`/admin/assets/…`, or a name with a static file's extension) is a 404;
 * - `/admin` redirects to `/admin/`; only GET and HEAD (other methods fall through to the API's 404);
 * - no build yet: 503 with how to make one (`npm start` builds it when missing);
 * - every answer carries the panel's security headers (Content-Security-Policy, nosniff, Referrer-Policy,
 *   X-Frame-Options; infra/edge.ts), as CloudFront's response headers policy adds them in AWS.
 */
export function adminSite(distDir: string): Mount {
  const root = resolve(distDir);
  return (req, res, rest, url) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const send = (status: number, headers: Record<string, string>, body?: Buffer | string) => {
      res.writeHead(status, { ...ADMIN_SECURITY_HEADERS, ...headers });
      res.end(req.method === 'HEAD' ? undefined : body);
      return true;
    };
    if (url.pathname === '/admin') return send(301, { location: `/admin/${url.search}`, 'cache-control': 'no-cache' });
    const index = resolve(root, 'index.html');
    if (!existsSync(index)) {
      return send(
        503,
        { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        'The staff panel is not built: run `npm run build:admin` (npm start builds it when missing).\n',
      );
    }
    let path: string;
    try {
      path = decodeURIComponent(rest);
    } catch {
      return send(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' }, 'Bad path\n');
    }
    const file = resolve(root, `.${path}`);
    const inside = file === root || file.startsWith(root + sep);
    if (inside && path !== '/' && existsSync(file) && statSync(file).isFile()) {
      return send(
        200,
        {
          'content-type': CONTENT_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
          'cache-control': HASHED_ASSET.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
        },
        readFileSync(file),
      );
    }
    // A file name the build could have made is a 404 when missing; anything else is a route of the SPA (ids
    // such as a staff username `a.b@c.ir` may hold dots).
    if (!inside || path.startsWith('/assets/') || extname(path).toLowerCase() in CONTENT_TYPES) {
      return send(404, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-cache' }, 'Not found\n');
    }
    return send(200, { 'content-type': CONTENT_TYPES['.html'] as string, 'cache-control': 'no-cache' }, readFileSync(index));
  };
}
