/**
 * The tutor's pipeline overhead: `POST /api/ai/ask` through the local streaming shim (the same handler the function
 * URL runs) with the fake model set to a known first-token delay; the time from the request to the first streamed
 * byte minus that delay is what the pipeline itself costs (auth, throttle, quota transaction, conversation and
 * cache reads, the question's embedding and retrieval, prompt, the SDK, the plain-text cleaner, the stream).
 */
import { startLocalStack } from '../../../packages/local/src/stack';
import { BENCH_ENV } from './journey';
import { median, percentile } from './measure';

export async function benchTutor(asks: number, firstTokenMs: number) {
  const stack = await startLocalStack({
    port: 0,
    inMemory: true,
    env: {
      ...BENCH_ENV,
      TABLE_NAME: 'bench-tutor',
      // One learner asks every question: a quota that never runs out. The fake model of the stack answers.
      AI_DAILY_QUOTA_FREE: '100000',
      OPENAI_API_KEY: undefined,
      OPENAI_BASE_URL: undefined,
    },
  });
  stack.llm.config.firstTokenDelayMs = firstTokenMs;
  stack.llm.config.chunkDelayMs = 2;
  const counter = stack.deps.db.requests;
  const samples: { firstByte: number; total: number; dynamo: number }[] = [];
  try {
    const phone = '09350000999';
    await fetch(`${stack.baseUrl}/api/auth/otp/request`, { method: 'POST', body: JSON.stringify({ phone }) });
    const otp = stack.smsOutbox.filter((m) => m.phone === phone).at(-1)?.token;
    const login = (await (
      await fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', body: JSON.stringify({ phone, otp }) })
    ).json()) as {
      accessToken: string;
    };
    for (let i = -3; i < asks; i++) {
      const before = counter.total;
      const t0 = performance.now();
      const res = await fetch(`${stack.baseUrl}/api/ai/ask`, {
        method: 'POST',
        headers: { authorization: `Bearer ${login.accessToken}` },
        // A new question each time: no cache hits.
        body: JSON.stringify({ userQuestion: `how do I add ${i + 4}/7 and 1/14?` }),
      });
      if (res.status !== 200) throw new Error(`POST /api/ai/ask: ${res.status} ${await res.text()}`);
      const reader = (res.body as ReadableStream<Uint8Array>).getReader();
      let firstByte = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (!firstByte && value.length) firstByte = performance.now() - t0;
      }
      const total = performance.now() - t0;
      // Warm-up asks (JIT, first loads of the content and textbook caches) are not recorded.
      if (i >= 0) samples.push({ firstByte, total, dynamo: counter.total - before });
    }
  } finally {
    await stack.close();
  }
  const overhead = samples.map((s) => s.firstByte - firstTokenMs);
  return {
    asks: samples.length,
    overheadP50: percentile(overhead, 50),
    overheadP99: percentile(overhead, 99),
    firstByteP50: percentile(
      samples.map((s) => s.firstByte),
      50,
    ),
    totalP50: percentile(
      samples.map((s) => s.total),
      50,
    ),
    dynamo: median(samples.map((s) => s.dynamo)),
    dynamoMax: Math.max(...samples.map((s) => s.dynamo)),
  };
}
