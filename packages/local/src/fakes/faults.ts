/**
 * Fault controls of the local fakes (DESIGN §6: `POST /_local/<sms|gateway|llm|...>/faults` `{ status, count }`),
 * so that tests and demos can make a fake fail the way its real provider does. Each fake keeps a queue of
 * faults; every API call (not the control routes) takes the first queued fault whose `path` it matches.
 *
 * `POST /_local/<fake>/faults` body (all optional but one of `status`, `code`, `kind`):
 * - `status`: the HTTP status to answer (the provider's own error body for it, e.g. Kavenegar's `return`
 *   envelope, ZarinPal's `errors` object, OpenAI's `error` object); a 5xx without `code` answers the HTML page
 *   a proxy in front of the provider would;
 * - `code`: the provider's error code (sms `418`, gateway `-12`, model `rate_limit_exceeded`), in its error body;
 * - `kind`: `error` (the default with `status`/`code`), `hang` (accept the request, never answer), `garbage`
 *   (HTTP `status` or 200 with a body that is not the provider's JSON), `reset` (close the connection without an
 *   answer), `slow` (answer normally after `delayMs`), and for the model `stall` (start the stream, then stop
 *   sending after `afterChunks` chunks, connection open);
 * - `count` (default 1): how many calls the fault answers; `path`: only calls whose path contains it
 *   (`verify`, `embeddings`, ...); `delayMs`, `afterChunks`, `retryAfter` (seconds, on a 429), `message`.
 * → `{ queued: [...] }`. `GET` lists the queue, `DELETE` empties it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export type FaultKind = 'error' | 'hang' | 'garbage' | 'reset' | 'slow' | 'stall';

export interface Fault {
  kind: FaultKind;
  status?: number;
  code?: string | number;
  count: number;
  path?: string;
  delayMs: number;
  afterChunks: number;
  retryAfter?: number;
  message?: string;
}

const KINDS: readonly FaultKind[] = ['error', 'hang', 'garbage', 'reset', 'slow', 'stall'];

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

/** A fault from a control request's body, or the reason it is not one. */
function parseFault(body: Record<string, unknown>): Fault | string {
  const { status, code, kind, count, path, delayMs, afterChunks, retryAfter, message } = body;
  if (status !== undefined && (typeof status !== 'number' || !Number.isInteger(status) || status < 100 || status > 599)) {
    return 'status must be an HTTP status (100-599)';
  }
  if (code !== undefined && typeof code !== 'number' && typeof code !== 'string') return 'code must be a number or a string';
  if (kind !== undefined && !KINDS.includes(kind as FaultKind)) return `kind must be one of ${KINDS.join(', ')}`;
  if (status === undefined && code === undefined && kind === undefined) return 'give status, code or kind';
  const int = (v: unknown, min: number, max: number, fallback: number) =>
    typeof v === 'number' && Number.isFinite(v) ? Math.max(min, Math.min(max, Math.floor(v))) : fallback;
  return {
    kind: (kind as FaultKind | undefined) ?? 'error',
    ...(status !== undefined ? { status: status as number } : {}),
    ...(code !== undefined ? { code: code as string | number } : {}),
    count: int(count, 1, 10_000, 1),
    ...(typeof path === 'string' && path ? { path } : {}),
    delayMs: int(delayMs, 0, 600_000, 0),
    afterChunks: int(afterChunks, 0, 10_000, 1),
    ...(typeof retryAfter === 'number' && retryAfter >= 0 ? { retryAfter } : {}),
    ...(typeof message === 'string' ? { message } : {}),
  };
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The fault queue of one fake, with its control route. */
export function createFaults() {
  const queue: Fault[] = [];
  const counts = { injected: 0 };
  return {
    queue,
    /** How many calls a fault answered since the start. */
    counts,
    /** The first queued fault for a call at `path` (one of its `count` used), or undefined. */
    take(path: string): Fault | undefined {
      const i = queue.findIndex((f) => !f.path || path.includes(f.path));
      const fault = queue[i];
      if (!fault) return undefined;
      counts.injected++;
      fault.count--;
      if (fault.count <= 0) queue.splice(i, 1);
      return { ...fault };
    },
    /** Handles `GET|POST|DELETE /faults` (`path` relative to the fake); false when it is not that route. */
    handle(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer): boolean {
      if (path !== '/faults') return false;
      if (req.method === 'GET') json(res, 200, { queued: queue });
      else if (req.method === 'DELETE') {
        queue.length = 0;
        json(res, 200, { queued: queue });
      } else if (req.method === 'POST') {
        let parsed: unknown;
        try {
          parsed = JSON.parse(body.toString('utf8') || '{}');
        } catch {
          parsed = undefined;
        }
        const fault =
          parsed && typeof parsed === 'object' && !Array.isArray(parsed)
            ? parseFault(parsed as Record<string, unknown>)
            : 'send a JSON object';
        if (typeof fault === 'string') json(res, 400, { detail: fault });
        else {
          queue.push(fault);
          json(res, 200, { queued: queue });
        }
      } else return false;
      return true;
    },
  };
}

/** An nginx-style error page, what a proxy in front of a provider answers when the provider is down. */
export function proxyErrorPage(res: ServerResponse, status: number): void {
  const reason =
    { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Temporarily Unavailable', 504: 'Gateway Time-out' }[status] ??
    'Error';
  res.writeHead(status, { 'content-type': 'text/html' });
  res.end(
    `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`,
  );
}

/**
 * Applies the provider-neutral part of `fault`: `hang` (never answers; the connection stays open until the
 * client gives up), `reset`, `garbage` (`contentType` and a body that is not valid JSON), and `slow` (waits
 * `delayMs`). Returns true when the call is answered (or abandoned) and the fake must not answer it itself.
 */
export async function applyFault(fault: Fault, res: ServerResponse, contentType = 'application/json; charset=utf-8'): Promise<boolean> {
  switch (fault.kind) {
    case 'hang':
      res.socket?.setTimeout(0);
      return true;
    case 'reset':
      res.socket?.destroy();
      return true;
    case 'garbage':
      if (fault.delayMs) await sleep(fault.delayMs);
      res.writeHead(fault.status ?? 200, { 'content-type': contentType });
      res.end('{"data":{"code":100,"message":"Succ<html><body>upstream sent an invalid response</body></html>');
      return true;
    case 'slow':
      await sleep(fault.delayMs);
      return false;
    default:
      if (fault.delayMs) await sleep(fault.delayMs);
      return false;
  }
}
