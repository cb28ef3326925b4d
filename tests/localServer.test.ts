/**
 * The local server under bad clients and a racing start (issue 22 §6; DESIGN §11): a body over the server's limit is
 * 413 `body_too_large` JSON with no stack trace, a body that stalls is 408 JSON within 30 s, and the server keeps
 * serving after both; two stacks starting at once on one fresh table (two fresh `npm start`s) both come up.
 */
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_REQUEST_BODY_BYTES } from '../packages/local/src/apigw';
import { call, startTestStack, useStack } from './support/stack';

/** Writes `head` then `body` (a Buffer, or a function streaming it) on a raw socket; resolves with what the server answered and when. */
function rawExchange(
  port: number,
  head: string,
  body: (write: (chunk: Buffer) => boolean) => Promise<void> | void,
): Promise<{ text: string; ms: number; status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      const text = Buffer.concat(chunks).toString('utf8');
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
      const bodyText = text.slice(text.indexOf('\r\n\r\n') + 4);
      let json: unknown;
      try {
        json = JSON.parse(bodyText);
      } catch {
        json = undefined;
      }
      resolve({ text, ms: Date.now() - started, status, json });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', finish);
    socket.on('end', finish);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may close while we still write: what it answered before counts.
      if (chunks.length > 0 || error.code === 'ECONNRESET' || error.code === 'EPIPE') finish();
      else reject(error);
    });
    socket.on('connect', async () => {
      socket.write(head);
      try {
        await body((chunk) => (socket.destroyed ? false : socket.write(chunk)));
      } catch {
        // the server closed the connection while we wrote
      }
    });
  });
}

describe('the local server and bad bodies', () => {
  const stack = useStack();

  it('answers a body over its limit with 413 body_too_large JSON, no stack trace, and keeps serving', async () => {
    const size = MAX_REQUEST_BODY_BYTES + 1024 * 1024;
    const head = `POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`;
    const answer = await rawExchange(stack.port, head, async (write) => {
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      for (let sent = 0; sent < size; sent += chunk.length) {
        if (!write(chunk)) await new Promise((r) => setTimeout(r, 5));
      }
    });
    expect(answer.status).toBe(413);
    expect(answer.json).toEqual({ code: 'body_too_large', detail: expect.any(String) });
    expect(answer.text).toMatch(/content-type: application\/json/i);
    expect(answer.text).not.toMatch(/at .*\.ts:\d+|Error:/);
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
  });

  it('lets an ordinary client (fetch) that sends a body over the limit read the 413', async () => {
    const res = await call(stack, 'POST', '/api/auth/login', { body: JSON.stringify({ phone: 'x'.repeat(MAX_REQUEST_BODY_BYTES) }) });
    expect([res.status, res.body.code]).toEqual([413, 'body_too_large']);
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
  });

  it('refuses a chunked body that grows past the limit the same way', async () => {
    const head = 'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const answer = await rawExchange(stack.port, head, async (write) => {
      const piece = Buffer.alloc(256 * 1024, 0x20);
      for (let sent = 0; sent <= MAX_REQUEST_BODY_BYTES + piece.length; sent += piece.length) {
        if (!write(Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n')]))) {
          await new Promise((r) => setTimeout(r, 5));
        }
      }
    });
    expect(answer.status).toBe(413);
    expect((answer.json as { code: string }).code).toBe('body_too_large');
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
  });

  it('answers a route’s own smaller limit with 413 too (the route reads the whole body)', async () => {
    const res = await call(stack, 'POST', '/api/auth/login', { body: JSON.stringify({ phone: 'x'.repeat(70 * 1024), otp: '1' }) });
    expect([res.status, res.body.code]).toEqual([413, 'body_too_large']);
  });

  it('answers a body that stalls with 408 JSON within 30 s, and keeps serving', { timeout: 60_000 }, async () => {
    const head = 'POST /api/auth/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n';
    const answer = await rawExchange(stack.port, head, (write) => {
      write(Buffer.from('{"phone":'));
    });
    expect(answer.status).toBe(408);
    expect(answer.json).toEqual({ code: 'request_timeout', detail: expect.any(String) });
    expect(answer.ms).toBeLessThan(30_000);
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
  });
});

describe('two fresh starts at once', () => {
  it('both come up when they race to create the same table', { timeout: 240_000 }, async () => {
    const env = { TABLE_NAME: `race-${randomUUID()}` };
    const [a, b] = await Promise.all([startTestStack({ env }), startTestStack({ env })]);
    try {
      expect((await call(a, 'GET', '/api/health')).status).toBe(200);
      expect((await call(b, 'GET', '/api/health')).status).toBe(200);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
