/**
 * Requests from another address of this machine: every 127.x.y.z is the loopback, so a client bound to 127.0.0.2
 * reaches the local server as a second viewer (the local edge names the socket's address in CloudFront-Viewer-Address).
 * Answers like `call` (support/stack.ts); headers are sent exactly as given.
 */
import { request as httpRequest } from 'node:http';
import type { ApiResponse } from './stack';

export function callFrom(
  base: string,
  method: string,
  path: string,
  options: { from?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<ApiResponse> {
  const url = new URL(path, base);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress: options.from ?? '127.0.0.1',
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = text ? JSON.parse(text) : undefined;
          } catch {
            // not JSON: keep the text
          }
          const headers = new Headers();
          for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
          resolve({ status: res.statusCode ?? 0, headers, body: parsed, text });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
