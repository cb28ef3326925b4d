/**
 * A TCP proxy in front of a server (DynamoDB Local in the fault tests), whose behaviour a test switches:
 * - `pass`: forwards bytes both ways;
 * - `stall`: accepts connections and reads requests but never answers (new connections and open ones alike),
 *   like a database host that stopped responding;
 * - `refuse`: closes every connection at once (reset), like a host whose service is down;
 * - `reply`: answers a connection's first request with the canned HTTP response `reply` (a DynamoDB error,
 *   garbage) and closes it;
 * - `delay`: forwards, holding each answer back `delayMs` first (a slow database).
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export type ProxyMode = 'pass' | 'stall' | 'refuse' | 'reply' | 'delay';

export interface TcpProxy {
  endpoint: string;
  mode: ProxyMode;
  /** For `reply`: the whole HTTP response written to each request. */
  reply: string;
  /** For `delay`: ms each chunk from the server is held back. */
  delayMs: number;
  /** Connections accepted since the start. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** A DynamoDB JSON error as the service answers it over HTTP (`__type` names the exception). */
export function dynamoErrorResponse(status: number, type: string, message: string): string {
  const body = JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message });
  return `HTTP/1.1 ${status} Error\r\nContent-Type: application/x-amz-json-1.0\r\nx-amzn-RequestId: fault\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** Starts a proxy on a free loopback port forwarding to `target` (`http://host:port`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  let accepted = 0;
  const proxy: TcpProxy = {
    endpoint: '',
    mode: 'pass',
    reply: '',
    delayMs: 0,
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((client) => {
    accepted++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (proxy.mode === 'refuse') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(Number(port), hostname);
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.on('data', (chunk) => {
      if (proxy.mode === 'stall') return; // swallowed: no answer ever comes
      if (proxy.mode === 'refuse') return void client.resetAndDestroy();
      if (proxy.mode === 'reply') return void client.end(proxy.reply);
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (proxy.mode === 'stall') return;
      if (proxy.mode === 'delay') setTimeout(() => client.write(chunk), proxy.delayMs);
      else client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  proxy.endpoint = `http://127.0.0.1:${address.port}`;
  return proxy;
}
