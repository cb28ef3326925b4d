/**
 * Leaderboard reads at several board sizes (100 and 100,000 learners by default): a learner with 65 XP (far down
 * a large board, among ties) reads each board cold (the clock moved past the 60 s cache) and warm (the next read),
 * each measured with its DynamoDB side (measure.ts). The boards are seeded as XP grants leave them (entries in
 * gsi1 and the XP histogram), with BatchWriteItem for speed; XP is skewed towards small values (5 × ⌊2000·r²⌋), as
 * on a real board: about 2,000 distinct values, many ties at the bottom. The entries carry the learners' names, as
 * grants write them, so the seeded learners need no user items. The board-snapshot job runs before each cold read,
 * untimed (in AWS its schedule does, outside any request).
 */
import { ManualClock } from '@mathisland/core';
import type { Db } from '@mathisland/core/db';
import { bulkLoadBoard, OVERALL_BOARD, weeklyBoard } from '@mathisland/core/leaderboard';
import { startLocalStack } from '../../../packages/local/src/stack';
import { allNodes, questionsOf } from '../../../tests/support/content';
import { send } from './client';
import { BENCH_ENV } from './journey';
import { instrument, type Sample, summarize } from './measure';

async function seedBoards(db: Db, count: number, nowMs: number) {
  const learners = Array.from({ length: count }, (_, i) => ({
    userId: 1_000_000 + i,
    publicId: `User${String(1_000_000 + i).slice(-6)}`,
    xp: 5 * Math.floor(2000 * Math.random() ** 2) + 5,
    reachedAt: nowMs - i * 1000,
  }));
  for (const board of [OVERALL_BOARD, weeklyBoard(nowMs)]) await bulkLoadBoard(db, board, learners);
}

export async function benchLeaderboard(sizes: number[], reads: number) {
  const rows = [];
  for (const size of sizes) {
    const clock = new ManualClock(Date.UTC(2026, 10, 18, 8, 30));
    const stack = await startLocalStack({ port: 0, inMemory: true, clock, env: { ...BENCH_ENV, TABLE_NAME: `bench-board-${size}` } });
    try {
      const seedStart = performance.now();
      await seedBoards(stack.deps.db, size, clock.now() - 3600_000);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      const phone = '09350000001';
      await fetch(`${stack.baseUrl}/api/auth/otp/request`, { method: 'POST', body: JSON.stringify({ phone }) });
      const otp = stack.smsOutbox.at(-1)!.token;
      const login = await fetch(`${stack.baseUrl}/api/auth/login`, { method: 'POST', body: JSON.stringify({ phone, otp }) });
      const auth = { authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
      const node = allNodes()[0]!;
      for (const q of questionsOf(node)) {
        await fetch(`${stack.baseUrl}/api/questions/${q.id}/answer`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ answer: q.answer }),
        });
      }
      await fetch(`${stack.baseUrl}/api/nodes/${node.id}/quiz/complete`, { method: 'POST', headers: auth });
      const measure = instrument(stack.deps.db);
      for (const period of ['weekly', 'overall'] as const) {
        const cold: Sample[] = [];
        const warm: Sample[] = [];
        let rank = 0;
        for (let i = 0; i < reads + 1; i++) {
          clock.advance(61); // past the 60 s cache: a cold read
          // The board-snapshot job's run of this minute, which in AWS happens on its schedule, outside any request.
          await stack.runSchedules();
          for (const list of [cold, warm]) {
            const t0 = performance.now();
            const { result, side } = await measure(async () => {
              const res = await send('GET', `${stack.baseUrl}/api/leaderboard?period=${period}`, { headers: auth });
              const body = res.json as { me: { rank: number } };
              if (res.status !== 200) throw new Error(`leaderboard: ${res.status} ${JSON.stringify(body)}`);
              return body;
            });
            rank = result.me.rank;
            if (i > 0) list.push({ ms: performance.now() - t0, ...side });
          }
        }
        rows.push({ size, period, rank, seedSeconds, cold: summarize(cold), warm: summarize(warm) });
      }
    } finally {
      await stack.close();
    }
  }
  return rows;
}
