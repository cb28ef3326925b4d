import { Readable } from 'node:stream';
import { fakeDeps } from '@mathisland/core/testing';
import middy from '@middy/core';
import { executionModeStreamifyResponse } from '@middy/core/StreamifyResponse';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bufferedStreamifyResponse, HttpResponseStream, installStreamingStandIn, type ResponseStream } from './responseStream';

type Global = { awslambda?: Record<string, unknown> };
const g = globalThis as Global;

/** Ends `stream` and waits until it has finished, as middy does. */
const end = (stream: ResponseStream) => new Promise<void>((resolve) => stream.end(resolve));

/** A context as SST's local worker passes it. */
const context = { awsRequestId: 'r1', functionName: 'tutorGroup', getRemainingTimeInMillis: () => 60_000 };

describe('the buffered stand-in of awslambda.streamifyResponse (sst dev)', () => {
  it('answers the status, headers and cookies HttpResponseStream.from set, and everything written after as the body', async () => {
    const handler = bufferedStreamifyResponse(async (_event, stream: ResponseStream) => {
      const http = HttpResponseStream.from(stream, {
        statusCode: 201,
        headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Tutor-Outcome': 'answer', 'Retry-After': 5 },
        cookies: ['a=1; Path=/api'],
      });
      http.write('');
      http.write('Three quarters ');
      http.write(Buffer.from('is bigger: ۳/۴ > ۵/۸.'));
      await end(http);
    });
    expect(await handler({}, context)).toEqual({
      statusCode: 201,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Tutor-Outcome': 'answer', 'Retry-After': '5' },
      cookies: ['a=1; Path=/api'],
      body: 'Three quarters is bigger: ۳/۴ > ۵/۸.',
      isBase64Encoded: false,
    });
  });

  it('answers 200 with the stream’s content type without a prelude, and a body that is not UTF-8 base64-encoded', async () => {
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    const handler = bufferedStreamifyResponse(async (_event, stream: ResponseStream) => {
      stream.setContentType('application/octet-stream');
      stream.write(bytes);
      await end(stream);
    });
    expect(await handler({}, context)).toEqual({
      statusCode: 200,
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes.toString('base64'),
      isBase64Encoded: true,
    });
  });

  it('fails the invocation when the handler throws, after its first write as before it, or leaves the stream open', async () => {
    const after = bufferedStreamifyResponse(async (_event, stream: ResponseStream) => {
      const http = HttpResponseStream.from(stream, { statusCode: 200, headers: { 'content-type': 'text/plain' } });
      http.write('The first sentence. ');
      throw new Error('model failed mid-answer');
    });
    await expect(after({}, context)).rejects.toThrow('model failed mid-answer');
    const before = bufferedStreamifyResponse(async () => {
      throw new Error('no slot');
    });
    await expect(before({}, context)).rejects.toThrow('no slot');
    const open = bufferedStreamifyResponse(async (_event, stream: ResponseStream) => {
      stream.write('half');
    });
    await expect(open({}, context)).rejects.toThrow('Response stream is not finished.');
  });

  describe('installed where no runtime defined awslambda', () => {
    let saved: Global['awslambda'];
    beforeEach(() => {
      saved = g.awslambda;
      delete g.awslambda;
    });
    afterEach(() => {
      if (saved === undefined) delete g.awslambda;
      else g.awslambda = saved;
    });

    it('installs itself only when no streamifyResponse is there, keeping what else the object holds', () => {
      installStreamingStandIn();
      expect(g.awslambda?.streamifyResponse).toBe(bufferedStreamifyResponse);
      expect(g.awslambda?.HttpResponseStream).toBe(HttpResponseStream);
      const runtimes = (h: unknown) => h;
      g.awslambda = { streamifyResponse: runtimes };
      installStreamingStandIn();
      expect(g.awslambda.streamifyResponse).toBe(runtimes);
      const invokeStore = {};
      g.awslambda = { InvokeStore: invokeStore };
      installStreamingStandIn();
      expect(g.awslambda).toMatchObject({ InvokeStore: invokeStore, streamifyResponse: bufferedStreamifyResponse });
    });

    it('under middy’s streamify mode: a streamed body arrives whole; one that fails after its first chunk fails', async () => {
      installStreamingStandIn();
      const respond = (body: Readable) =>
        middy({ executionMode: executionModeStreamifyResponse }).handler(async () => ({
          statusCode: 200,
          headers: { 'content-type': 'text/plain; charset=utf-8', 'x-tutor-outcome': 'answer' },
          body,
        })) as unknown as (event: unknown, ctx: typeof context) => Promise<unknown>;
      expect(await respond(Readable.from(['One. ', 'Two. ', 'Three.']))({}, context)).toEqual({
        statusCode: 200,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'x-tutor-outcome': 'answer' },
        body: 'One. Two. Three.',
        isBase64Encoded: false,
      });
      async function* cut() {
        yield 'One. ';
        throw new Error('stream cut');
      }
      await expect(respond(Readable.from(cut()))({}, context)).rejects.toThrow('stream cut');
    });

    it('lets a streamed group load, and its handler answers whole: the tutor refusing a request around CloudFront', async () => {
      const tutor = await import('../groups/tutor');
      const handler = tutor.createHandler(async () => fakeDeps()) as unknown as (event: unknown, ctx: typeof context) => Promise<any>;
      const event = {
        version: '2.0',
        routeKey: '$default',
        rawPath: '/api/ai/ask',
        rawQueryString: '',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userQuestion: 'Which is bigger, 3/4 or 5/8?' }),
        isBase64Encoded: false,
        requestContext: { http: { method: 'POST', path: '/api/ai/ask', protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'test' } },
      };
      const answer = await handler(event, context);
      expect(answer).toMatchObject({
        statusCode: 403,
        headers: { 'content-type': expect.stringMatching(/^application\/json/), 'x-request-id': expect.any(String) },
        isBase64Encoded: false,
      });
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'forbidden_origin' });
    });

    it('builds a streamed group only with the streaming option, and a buffered one only without it', async () => {
      const { tutorRoutes } = await import('../../../../infra/routes/tutor');
      const { healthRoutes } = await import('../../../../infra/routes/health');
      const { defineGroup } = await import('./group');
      const { streaming } = await import('./streaming');
      const tutor = await import('../groups/tutor');
      const health = await import('../groups/health');
      expect(() => defineGroup(tutorRoutes, tutor.routes)).toThrow(/streamed routes need defineGroup's streaming option/);
      expect(() => defineGroup(healthRoutes, health.routes, { streaming })).toThrow(/streaming option/);
    });
  });
});
