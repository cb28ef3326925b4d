/**
 * Requests from another address of this machine: every 127.x.y.z is the loopback, so a client bound to 127.0.0.2
 * reaches the local server as a second viewer (the local edge names the socket's address in CloudFront-Viewer-Address).
 * Answers like `call` (support/stack.ts); headers are sent exactly as given, a body as JSON.
 */
import { type ApiResponse, rawCall } from './stack';

export const callFrom = (
  base: string,
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiResponse> =>
  rawCall({ baseUrl: base }, method, path, {
    from: options.from ?? '127.0.0.1',
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
