/**
 * The local runtime's side of API Gateway (apigw.ts): a handler's result goes out with its Content-Length, never
 * chunked, as API Gateway answers a buffered integration; a request without a body is not waited on, and its
 * connection serves the next request.
 */
import { Agent, createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { afterEach, describe, expect, it } from 'vitest';
import { readBody, writeResult } from './apigw';

let server: Server | undefined;
afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

/** A server answering every request with `result` (writeResult), the body it read in `x-body-bytes`. */
async function serve(result: APIGatewayProxyStructuredResultV2 | string): Promise<number> {
  server = createServer(async (req, res) => {
    const body = await readBody(req);
    writeResult(
      res,
      typeof result === 'string' ? result : { ...result, headers: { ...result.headers, 'x-body-bytes': String(body.length) } },
    );
  });
  await new Promise<void>((r) => server?.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
}

/** Sends raw `bytes` and returns the head (lower-cased header names) and body of the answer, once the server closes. */
function exchange(port: number, bytes: string): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      const [statusLine = '', ...lines] = all.subarray(0, end).toString('latin1').split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: all.subarray(end + 4) });
    });
    socket.write(bytes);
  });
}

const GET = 'GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n';

describe('writeResult', () => {
  it('sends a JSON body with its Content-Length in bytes, not chunked', async () => {
    const body = JSON.stringify({ name: 'جزیره' }); // more bytes than characters
    const port = await serve({ statusCode: 200, headers: { 'content-type': 'application/json' }, body });
    const answer = await exchange(port, GET);
    expect(answer.status).toBe(200);
    expect(answer.headers['transfer-encoding']).toBeUndefined();
    expect(answer.headers['content-length']).toBe(String(Buffer.byteLength(body)));
    expect(answer.body.toString('utf8')).toBe(body);
  });

  it('counts a base64 body in decoded bytes', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252, 253]);
    const port = await serve({
      statusCode: 200,
      headers: { 'content-type': 'image/png' },
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });
    const answer = await exchange(port, GET);
    expect(answer.headers['content-length']).toBe('7');
    expect(answer.body.equals(bytes)).toBe(true);
  });

  it('sends no body and no Content-Length with a 204, and Content-Length 0 for an empty 200', async () => {
    const noContent = await exchange(await serve({ statusCode: 204, headers: {} }), GET);
    expect(noContent.status).toBe(204);
    expect(noContent.headers['content-length']).toBeUndefined();
    expect(noContent.body.length).toBe(0);
    await new Promise<void>((r) => server?.close(() => r()));
    const empty = await exchange(await serve({ statusCode: 200, headers: {}, body: '' }), GET);
    expect(empty.headers['content-length']).toBe('0');
  });

  it('keeps a Content-Length the handler set, and sends a bare string result as JSON', async () => {
    const port = await serve('{"ok":true}');
    const answer = await exchange(port, GET);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['content-length']).toBe('11');
    await new Promise<void>((r) => server?.close(() => r()));
    const own = await exchange(await serve({ statusCode: 200, headers: { 'Content-Length': '2' }, body: 'ok' }), GET);
    expect(own.headers['content-length']).toBe('2');
  });
});

describe('readBody', () => {
  it('reads a body framed by Content-Length or chunked, and nothing for a request without either', async () => {
    const port = await serve({ statusCode: 200, headers: {}, body: 'ok' });
    const post = (framing: string, payload: string) =>
      exchange(port, `POST /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n${framing}\r\n${payload}`);
    expect((await post('Content-Length: 7\r\n', '{"a":1}')).headers['x-body-bytes']).toBe('7');
    expect((await post('Transfer-Encoding: chunked\r\n', '3\r\n{"a\r\n4\r\n":1}\r\n0\r\n\r\n')).headers['x-body-bytes']).toBe('7');
    expect((await post('Content-Length: 0\r\n', '')).headers['x-body-bytes']).toBe('0');
    expect((await exchange(port, GET)).headers['x-body-bytes']).toBe('0');
  });

  it('serves the next request on the same keep-alive connection after a request without a body', async () => {
    const port = await serve({ statusCode: 200, headers: {}, body: 'ok' });
    const get = (reused: boolean[]) =>
      new Promise<void>((resolve, reject) => {
        const req = request({ port, host: '127.0.0.1', path: '/x', agent }, (res) => {
          reused.push(req.reusedSocket);
          res.resume().on('end', () => resolve());
        });
        req.on('error', reject).end();
      });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    await get(reused);
    await get(reused);
    await get(reused);
    agent.destroy();
    expect(reused).toEqual([false, true, true]);
  });
});
