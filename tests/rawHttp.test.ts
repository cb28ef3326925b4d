/**
 * Malformed HTTP at the local runtime (issue 13 item 7; DESIGN §3, §7): requests Node's HTTP parser refuses
 * (a bad request line, a bad header, headers over the size limit, bad chunked encoding, conflicting framing)
 * are answered with the service's JSON error body and its headers, not an empty 400. Written as raw bytes on
 * a TCP socket, since no HTTP client sends such requests.
 */
import { connect } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { addFigures } from './support/figures';
import { useStack } from './support/stack';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

let malformed = 0;
afterAll(() => addFigures('faults', { malformedHttpRequests: malformed }));

/** Writes `bytes` to the server and reads the answer until the server closes the connection (5 s at most). */
function exchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer: ${Buffer.concat(chunks).toString('latin1').slice(0, 200)}`));
    }, 5000);
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', () => undefined); // the server may reset after answering
    socket.on('close', () => {
      clearTimeout(timer);
      const text = Buffer.concat(chunks).toString('utf8');
      const [head = '', ...rest] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()] as const),
      );
      const raw = rest.join('\r\n\r\n');
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: headers['transfer-encoding'] === 'chunked' ? dechunk(raw) : raw });
    });
    socket.write(bytes);
  });
}

/** The payload of a chunked body. */
function dechunk(raw: string): string {
  let out = '';
  let rest = raw;
  for (;;) {
    const at = rest.indexOf('\r\n');
    const size = Number.parseInt(rest.slice(0, at), 16);
    if (!size) return out;
    out += rest.slice(at + 2, at + 2 + size);
    rest = rest.slice(at + 2 + size + 2);
  }
}

const expectJsonError = (answer: RawAnswer, status: number, code: string) => {
  malformed++;
  expect(answer.status, JSON.stringify(answer)).toBe(status);
  expect(answer.headers['content-type']).toMatch(/^application\/json/);
  expect(answer.headers['cache-control']).toBe('private, no-store');
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
  expect(JSON.parse(answer.body)).toEqual({ code, detail: expect.any(String) });
};

describe('malformed HTTP at the local runtime', () => {
  const stack = useStack();

  it('answers a bad request line with 400 bad_request in JSON', async () => {
    for (const line of [
      'GARBAGE\r\n\r\n',
      'GET /api/health HTTP/9.9\r\nHost: x\r\n\r\n',
      'GET  HTTP/1.1\r\n\r\n',
      '\x00\x01\x02\r\n\r\n',
    ]) {
      expectJsonError(await exchange(stack.port, line), 400, 'bad_request');
    }
  });

  it('answers a malformed header with 400 bad_request in JSON', async () => {
    for (const header of ['No colon here', 'Bad\x01Name: 1', 'X-Ok: line\x00nul', ' Leading: space']) {
      expectJsonError(await exchange(stack.port, `GET /api/health HTTP/1.1\r\nHost: x\r\n${header}\r\n\r\n`), 400, 'bad_request');
    }
  });

  it('answers headers over the size limit with 431 headers_too_large in JSON', async () => {
    const big = `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
    expectJsonError(await exchange(stack.port, big), 431, 'headers_too_large');
    const many = `GET /api/health HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`).join('\r\n')}\r\n\r\n`;
    expectJsonError(await exchange(stack.port, many), 431, 'headers_too_large');
  });

  it('answers bad chunked encoding and conflicting framing with 400 bad_request in JSON', async () => {
    const post = 'POST /api/auth/otp/request HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n';
    expectJsonError(
      await exchange(stack.port, `${post}Transfer-Encoding: chunked\r\n\r\nzz\r\n{"phone":1}\r\n0\r\n\r\n`),
      400,
      'bad_request',
    );
    expectJsonError(await exchange(stack.port, `${post}Transfer-Encoding: chunked\r\n\r\n5\r\n{"phone"\r\n0\r\n\r\n`), 400, 'bad_request');
    expectJsonError(
      await exchange(stack.port, `${post}Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n3\r\n{}}\r\n0\r\n\r\n`),
      400,
      'bad_request',
    );
    expectJsonError(await exchange(stack.port, `${post}Content-Length: 2\r\nContent-Length: 9\r\n\r\n{}`), 400, 'bad_request');
  });

  it('still answers well-formed raw requests normally', async () => {
    const ok = await exchange(stack.port, 'GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toEqual({ status: 'ok' });
  });
});
