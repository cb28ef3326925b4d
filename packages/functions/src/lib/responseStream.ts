/**
 * The Lambda Node runtime's response streaming, as the streamed groups use it (DESIGN §1: `tutor`, `adminexport`),
 * and a buffering stand-in for a Node runtime that has none.
 *
 * What the real runtime does (aws-lambda-nodejs-runtime-interface-client: UserFunction `_loadUserApp`,
 * `HttpResponseStream`, `ResponseStream`, `StreamingInvokeProcessor`), and {@link ResponseStream} and
 * {@link HttpResponseStream} mirror:
 * - `globalThis.awslambda.streamifyResponse(handler, options?)` marks the handler with
 *   `Symbol.for('aws.lambda.runtime.handler.streaming') = 'response'` (and the highWaterMark symbol) and returns it;
 *   the runtime then calls it as `handler(event, responseStream, context)` and awaits its promise.
 * - `responseStream` is a writable HTTP request body to the Runtime API: `setContentType(type)` (only before the first
 *   write), `_onBeforeFirstWrite(write)` called once right before the first write.
 * - `awslambda.HttpResponseStream.from(stream, prelude)` sets the content type
 *   `application/vnd.awslambda.http-integration-response` and installs an `_onBeforeFirstWrite` that writes
 *   `JSON.stringify(prelude)` followed by 8 NUL bytes; the function URL reads the prelude (`statusCode`, `headers`,
 *   `cookies`) and streams the rest as the body.
 * - A handler that throws, before or after its first write, fails the invocation: a function URL answers 502 before
 *   the first byte and cuts the body after it.
 *
 * The local runtime plays the function URL with these classes (packages/local/src/awslambda.ts: its shim and
 * `invokeStreaming`, which stream to the socket). {@link installStreamingStandIn} is for a Node process that runs a
 * group's handler like Lambda but defines no `awslambda` global: SST's local worker under `sst dev`
 * (sst/support/nodejs-runtime, called as `handler(event, context)` by SST's live-lambda bridge, which returns what it
 * returns), or a plain `import` of a streamed group. There the response is buffered: {@link bufferedStreamifyResponse}.
 */
import { Writable } from 'node:stream';

export const HANDLER_STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
export const HANDLER_HIGHWATERMARK = Symbol.for('aws.lambda.runtime.handler.streaming.highWaterMark');
export const STREAM_RESPONSE = 'response';
export const PRELUDE_CONTENT_TYPE = 'application/vnd.awslambda.http-integration-response';
export const DELIMITER_LEN = 8;

/** What the runtime passes a streaming handler: the event, the response stream, the Lambda context. */
export type StreamingHandler<C = unknown> = ((event: unknown, responseStream: ResponseStream, context: C) => Promise<unknown>) & {
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
        this._onBeforeFirstWrite?.((c) => this.sink.data(Buffer.from(c)));
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

/** A whole function-URL / API Gateway (payload 2.0) response. */
export interface BufferedResponse {
  statusCode: number;
  headers: Record<string, string>;
  cookies?: string[];
  body: string;
  /** True when the body is not UTF-8 text and is given base64-encoded. */
  isBase64Encoded: boolean;
}

const NUL8 = Buffer.alloc(DELIMITER_LEN);
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Wraps a streaming handler as an ordinary one, `(event, context) => Promise<BufferedResponse>`: it runs the handler
 * on a {@link ResponseStream} that keeps every byte, and once the handler has ended the stream, answers the status,
 * headers and cookies of the prelude `HttpResponseStream.from` wrote (without one: 200 with the stream's content
 * type) and the rest as the body, UTF-8 text or else base64. Errors: whatever the handler throws, before or after its
 * first write, is thrown again (a buffered invocation cannot be cut, so it fails whole: a function URL answers 502);
 * `Response stream is not finished.` when the handler returns without ending the stream, as the runtime says.
 */
export function bufferedStreamifyResponse<C>(
  handler: StreamingHandler<C>,
  options: { highWaterMark?: number } = {},
): (event: unknown, context: C) => Promise<BufferedResponse> {
  return async (event, context) => {
    let contentType: string | undefined;
    const chunks: Buffer[] = [];
    const stream = new ResponseStream(
      {
        start: (type) => {
          contentType = type;
        },
        data: (chunk) => chunks.push(chunk),
      },
      options.highWaterMark,
    );
    await handler(event, stream, context);
    if (!stream.writableFinished) throw new Error('Response stream is not finished.');
    let bytes = Buffer.concat(chunks);
    let statusCode = 200;
    let headers: Record<string, string> = { 'content-type': contentType ?? stream.contentType };
    let cookies: string[] | undefined;
    if (contentType === PRELUDE_CONTENT_TYPE) {
      const end = bytes.indexOf(NUL8);
      if (end < 0) throw new Error('The response stream ended inside its prelude.');
      const prelude = JSON.parse(bytes.subarray(0, end).toString('utf8')) as {
        statusCode?: number;
        headers?: Record<string, unknown>;
        cookies?: string[];
      };
      statusCode = prelude.statusCode ?? 200;
      headers = Object.fromEntries(Object.entries(prelude.headers ?? {}).map(([name, value]) => [name, String(value)]));
      cookies = prelude.cookies?.length ? prelude.cookies : undefined;
      bytes = bytes.subarray(end + DELIMITER_LEN);
    }
    let body: string;
    let isBase64Encoded = false;
    try {
      body = UTF8.decode(bytes);
    } catch {
      body = bytes.toString('base64');
      isBase64Encoded = true;
    }
    return { statusCode, headers, ...(cookies ? { cookies } : {}), body, isBase64Encoded };
  };
}

/**
 * Installs `awslambda.streamifyResponse` = {@link bufferedStreamifyResponse} and `awslambda.HttpResponseStream` on
 * `globalThis.awslambda`, only when no `streamifyResponse` is there: the Lambda runtime's own, or the local runtime's
 * streaming shim, always wins. The object may exist already without it (the AWS SDK's `@aws/lambda-invoke-store`
 * puts its `InvokeStore` there). Called by `group.ts` (through streaming.ts) before it builds a streamed group's
 * handler, which middy wraps with `awslambda.streamifyResponse` there and then.
 */
export function installStreamingStandIn(): void {
  const g = globalThis as { awslambda?: Record<string, unknown> };
  g.awslambda ??= {};
  if (typeof g.awslambda.streamifyResponse === 'function') return;
  g.awslambda.HttpResponseStream = HttpResponseStream;
  g.awslambda.streamifyResponse = bufferedStreamifyResponse;
}
