/**
 * The worker of `npm run bench`'s load runs, in its own process so that its peak RSS is the service's alone (not
 * the load generator's): the local runtime on loopback, DynamoDB Local in memory (its own process, not counted),
 * and BENCH_THROTTLE_LIMIT so that 50 connections from one address are not throttled (settings refuse it in
 * production). Talks to its parent over IPC: sends `{ baseUrl }` once started; answers `'rss'` with
 * `{ maxRssKiB }` (the process's peak resident set, `process.resourceUsage().maxRSS`) and `'stop'` by closing.
 */
import { startLocalStack } from '../../../packages/local/src/stack';
import { BENCH_ENV } from './journey';

const stack = await startLocalStack({
  port: 0,
  inMemory: true,
  env: { ...BENCH_ENV, TABLE_NAME: 'bench-load', BENCH_THROTTLE_LIMIT: '100000000' },
});
process.on('message', async (message) => {
  if (message === 'rss') process.send?.({ maxRssKiB: process.resourceUsage().maxRSS });
  if (message === 'outbox') process.send?.({ outbox: stack.smsOutbox });
  if (message === 'stop') {
    await stack.close();
    process.exit(0);
  }
});
process.send?.({ baseUrl: stack.baseUrl.replace('localhost', '127.0.0.1') });
