/**
 * The bench's HTTP client for measured calls: `node:http` over one keep-alive connection, the body read whole and
 * parsed as JSON. A thin client, as load tools are (autocannon writes raw requests), so that a route's measured
 * latency is the service's and loopback's, not a heavy client's: the global `fetch` (undici, web streams) in the
 * same process as the local runtime added about 0.4 ms per call, a tenth of a fast route's time, to the
 * same-run ratios (measured on `GET /api/home`, 1,500 calls).
 */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true, maxSockets: 4 });

export interface BenchResponse {
  status: number;
  /** `Location` of a redirect. */
  location: string | undefined;
  /** The JSON body; undefined when there is none. */
  json: unknown;
}

/**
 * Sends `method url` with `headers` and, when given, `body` as JSON; never follows a redirect. Errors: the socket's
 * (refused, reset) and a body that is not JSON.
 */
export function send(
  method: string,
  url: string,
  options: { headers?: Record<string, string>; body?: unknown } = {},
): Promise<BenchResponse> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method,
        agent,
        headers: {
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
          ...options.headers,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          try {
            resolve({ status: res.statusCode ?? 0, location: res.headers.location, json: text ? JSON.parse(text) : undefined });
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
