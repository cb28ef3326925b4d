/**
 * A faithful local stand-in for the Lambda Node runtime's response streaming (DESIGN §1: the tutor is served
 * "streaming on the same port through a local `streamifyResponse` shim").
 *
 * The runtime's response stream and `HttpResponseStream` are the functions package's
 * (packages/functions/src/lib/responseStream.ts, whose doc says what the real runtime does); this module marks
 * handlers as the runtime does and plays the function URL. A handler that throws after writing fails the stream
 * (error trailers); the client of the function URL sees the body end early. Here the local server destroys the
 * connection instead, which a client sees the same way (an incomplete body). A handler that throws before writing
 * anything: the function URL answers 502.
 *
 * {@link invokeStreaming} plays the function URL's part for the local server: it runs a streaming handler and
 * writes status, headers and each body chunk to a Node `ServerResponse` as they arrive.
 */
import type { ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import {
  DELIMITER_LEN,
  HANDLER_HIGHWATERMARK,
  HANDLER_STREAMING,
  HttpResponseStream,
  PRELUDE_CONTENT_TYPE,
  ResponseStream,
  type StreamingHandler as RuntimeStreamingHandler,
  STREAM_RESPONSE,
} from '../../functions/src/lib/responseStream';

type StreamingHandler = RuntimeStreamingHandler<Context>;

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
