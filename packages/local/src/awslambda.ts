/**
 * A faithful local stand-in for the Lambda Node runtime's response streaming (DESIGN §1: the tutor is served
 * "streaming on the same port through a local `streamifyResponse` shim").
 *
 * What the real runtime does (aws-lambda-nodejs-runtime-interface-client: UserFunction `_loadUserApp`,
 * `HttpResponseStream`, `ResponseStream`, `StreamingInvokeProcessor`), and this module mirrors:
 * - `globalThis.awslambda.streamifyResponse(handler, options?)` marks the handler with
 *   `Symbol.for('aws.lambda.runtime.handler.streaming') = 'response'` (and the highWaterMark symbol) and returns
 *   it; the runtime then calls it as `handler(event, responseStream, context)` and awaits its promise.
 * - `responseStream` is a writable HTTP request body to the Runtime API: `setContentType(type)` (only before the
 *   first write), `_onBeforeFirstWrite(write)` called once right before the first write.
 * - `awslambda.HttpResponseStream.from(stream, prelude)` sets the content type
 *   `application/vnd.awslambda.http-integration-response` and installs an `_onBeforeFirstWrite` that writes
 *   `JSON.stringify(prelude)` followed by 8 NUL bytes; the function URL reads the prelude (`statusCode`,
 *   `headers`, `cookies`) and streams the rest as the body.
 * - A handler that throws after writing fails the stream (error trailers); the client of the function URL sees
 *   the body end early. Here the local server destroys the connection instead, which a client sees the same way
 *   (an incomplete body). A handler that throws before writing anything: the function URL answers 502.
 *
 * {@link invokeStreaming} plays the function URL's part for the local server: it runs a streaming handler and
 * writes status, headers and each body chunk to a Node `ServerResponse` as they arrive.
 */
import type { ServerResponse } from 'node:http';
import { Writable } from 'node:stream';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';

export const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
export const HANDLER_HIGHWATERMARK = Symbol.for('aws.lambda.runtime.handler.streaming.highWaterMark');
export const STREAM_RESPONSE = 'response';
export const PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
export const DELIMITER_LEN = 8;

type StreamingHandler = ((event: unknown, responseStream: ResponseStream, context: Context) => Promise<unknown>) & {
  [HANDLER_STREAMING]?: string;
  [HANDLER_HIGHWATERMARK]?: number;
};

/** The runtime's response stream: a byte sink with a content type and a first-write hook. */
export class ResponseStream extends Writable {
  contentType = 'application/octet-stream';
  /** Set by HttpResponseStream.from; called once with a raw writer right before the first write. */
  _onBeforeFirstWrite?: (write: (chunk: string | Uint8Array) => void) => void;
  private written = false;

  constructor(
    private readonly sink: { start(contentType: string): void; data(chunk: Buffer): void },
    highWaterMark?: number,
  ) {
    super(highWaterMark ? { highWaterMark } : {});
  }

  setContentType(contentType: string): void {
    if (this.written) throw new Error('Cannot set content-type, too late.');
    this.contentType = contentType;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    try {
      if (!this.written) {
        this.written = true;
        this.sink.start(this.contentType);
        this._onBeforeFirstWrite?.((c) => this.sink.data(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c)));
      }
      this.sink.data(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk);
      callback();
    } catch (error) {
      callback(error as Error);
    }
  }
}

/** The runtime's `awslambda.HttpResponseStream` (a class with a static `from` there; only `from` is used). */
export const HttpResponseStream = {
  from(underlyingStream: ResponseStream, prelude: Record<string, unknown>): ResponseStream {
    underlyingStream.setContentType(PRELUDE_CONTENT_TYPE);
    const metadataPrelude = JSON.stringify(prelude);
    underlyingStream._onBeforeFirstWrite = (write) => {
      write(metadataPrelude);
      write(new Uint8Array(DELIMITER_LEN));
    };
    return underlyingStream;
  },
};

/**
 * Installs `awslambda.streamifyResponse` and `awslambda.HttpResponseStream` on `globalThis.awslambda` unless the
 * runtime (or an earlier call) already did. The object may exist already without them: the AWS SDK's
 * `@aws/lambda-invoke-store` puts its `InvokeStore` there.
 */
export function installAwsLambdaShim(): void {
  const g = globalThis as { awslambda?: Record<string, unknown> };
  g.awslambda ??= {};
  if (typeof g.awslambda.streamifyResponse === 'function') return;
  g.awslambda.HttpResponseStream = HttpResponseStream;
  g.awslambda.streamifyResponse = (handler: StreamingHandler, options?: { highWaterMark?: number }) => {
    handler[HANDLER_STREAMING] = STREAM_RESPONSE;
    if (typeof options?.highWaterMark === 'number') handler[HANDLER_HIGHWATERMARK] = options.highWaterMark;
    return handler;
  };
}

/** Whether a handler was wrapped with `awslambda.streamifyResponse`. */
export const isStreamingHandler = (handler: unknown): boolean =>
  typeof handler === 'function' && (handler as StreamingHandler)[HANDLER_STREAMING] === STREAM_RESPONSE;

const NUL8 = Buffer.alloc(DELIMITER_LEN);

/**
 * Invokes a streaming handler the way a function URL in RESPONSE_STREAM mode does, writing to `res`:
 * the prelude's status, headers and cookies, then every body chunk as soon as the handler writes it.
 * Resolves when the response is complete or cut. `res` closing early (client gone) destroys the response
 * stream, so the handler's pipeline stops.
 */
export async function invokeStreaming(
  handler: unknown,
  event: APIGatewayProxyEventV2,
  context: Context,
  res: ServerResponse,
  fallbackHeaders: Record<string, string> = {},
): Promise<void> {
  const fn = handler as StreamingHandler;
  let mode: 'waiting' | 'prelude' | 'raw' = 'waiting';
  let preludeBytes = Buffer.alloc(0);
  const writeBody = (chunk: Buffer) => {
    if (chunk.length && !res.destroyed) res.write(chunk);
  };
  const startBody = (statusCode: number, headers: Record<string, string | string[]>) => {
    res.writeHead(statusCode, headers);
    res.flushHeaders();
  };
  const sink = {
    start(contentType: string) {
      mode = contentType === PRELUDE_CONTENT_TYPE ? 'prelude' : 'raw';
      if (mode === 'raw') startBody(200, { ...fallbackHeaders, 'content-type': contentType });
    },
    data(chunk: Buffer) {
      if (mode === 'raw') return writeBody(chunk);
      preludeBytes = Buffer.concat([preludeBytes, chunk]);
      const end = preludeBytes.indexOf(NUL8);
      if (end < 0) return;
      const prelude = JSON.parse(preludeBytes.subarray(0, end).toString('utf8')) as {
        statusCode?: number;
        headers?: Record<string, string>;
        cookies?: string[];
      };
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(prelude.headers ?? {})) headers[k.toLowerCase()] = String(v);
      if (prelude.cookies?.length) headers['set-cookie'] = prelude.cookies;
      startBody(prelude.statusCode ?? 200, headers);
      mode = 'raw';
      writeBody(preludeBytes.subarray(end + DELIMITER_LEN));
    },
  };
  const stream = new ResponseStream(sink, fn[HANDLER_HIGHWATERMARK]);
  let clientGone = false;
  const onClose = () => {
    if (res.writableFinished) return;
    clientGone = true;
    stream.destroy(new Error('The client closed the connection'));
  };
  res.on('close', onClose);
  try {
    await fn(event, stream, context);
    if (!stream.writableFinished) throw new Error('Response stream is not finished.');
    if (!res.headersSent) startBody(200, fallbackHeaders);
    res.end();
  } catch (error) {
    if (!res.headersSent) {
      res.writeHead(502, { 'content-type': 'application/json', 'cache-control': 'private, no-store' });
      res.end(JSON.stringify({ code: 'server_error', detail: 'The function failed before answering' }));
    } else {
      // What a function URL client sees when the function fails mid-stream: the body ends early.
      res.destroy();
    }
    if (!clientGone) console.error(`streaming handler failed: ${(error as Error).message}`);
  } finally {
    res.off('close', onClose);
  }
}
