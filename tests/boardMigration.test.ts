/**
 * Migration `0006-sharded-boards` (issue 30): boards written in the layout before it (one entry `BOARD#<board>` per
 * learner ranked in one gsi1 partition, one histogram partition per board; some entries older than the names of
 * migration 0004) move onto the write-sharded entries and histogram without losing a rank: every learner's rank, and
 * the top list with its names, are the same before and after. A learner the migration has not reached who earns XP
 * enters the new boards by that grant (and loses their old entry); re-running changes nothing.
 */
import { userKey } from '@mathisland/core/auth';
import { deleteItem, putAll, queryAll, updateItem } from '@mathisland/core/db';
import {
  boardEntries,
  getBoardEntry,
  getLegacyEntry,
  legacyEntryKey,
  legacyHistogramPartition,
  OVERALL_BOARD,
  weeklyBoard,
  xpHistogram,
} from '@mathisland/core/leaderboard';
import { applyMigrations, migrationKey } from '@mathisland/core/migrations';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { allNodes, nodeXp, playNode } from './support/content';
import { call, freshToken, type Session, signIn, type TestStack, useStack } from './support/stack';

const [node1, node2] = allNodes() as [ReturnType<typeof allNodes>[number], ReturnType<typeof allNodes>[number]];
const wednesday = Date.UTC(2026, 10, 18, 8, 30);
const MAX_XP = 9_999_999_999;
const pad = (n: number, width: number) => String(n).padStart(width, '0');

interface Standings {
  /** `<period> <userId>` → the learner's rank. */
  ranks: Record<string, number>;
  /** Period → the top list. */
  tops: Record<string, Array<{ rank: number; publicId: string; name: string; xp: number }>>;
  /** User id → publicId. */
  publicIds: Record<number, string>;
}

/** Each learner's rank and the top list on both boards, read through the API past the 60-second cache. */
async function standings(stack: TestStack, learners: Session[]): Promise<Standings> {
  stack.clock.advance(61);
  const out: Standings = { ranks: {}, tops: {}, publicIds: {} };
  for (const period of ['overall', 'weekly']) {
    for (const s of learners) {
      const res = await call(stack, 'GET', `/api/leaderboard?period=${period}&limit=100`, { token: await freshToken(stack, s) });
      expect(res.status, res.text).toBe(200);
      out.ranks[`${period} ${s.userId}`] = res.body.me.rank;
      out.tops[period] = res.body.items;
      out.publicIds[s.userId] = res.body.me.publicId;
    }
  }
  return out;
}

/** Puts the learners' board data back in the layout before migration 0006, as a previous release left it. */
async function toLegacyLayout(stack: TestStack, learners: Session[], unnamed: Set<number>) {
  const { db } = stack.deps;
  for (const board of [OVERALL_BOARD, weeklyBoard(stack.clock.now())]) {
    const histogram = new Map<number, number>();
    for (const entry of await boardEntries(db, board)) {
      histogram.set(entry.xp, (histogram.get(entry.xp) ?? 0) + 1);
      const { publicId, displayName, ...rest } = entry;
      const legacy = {
        ...legacyEntryKey(entry.userId, board),
        ...rest,
        ...(unnamed.has(entry.userId) ? {} : { publicId, ...(displayName ? { displayName } : {}) }),
        gsi1pk: `BOARD#${board}`,
        gsi1sk: `${pad(MAX_XP - entry.xp, 10)}#${pad(entry.reachedAt, 13)}#${pad(entry.userId, 10)}`,
      };
      await putAll(db, [legacy]);
      await deleteItem(db, { pk: `USER#${entry.userId}`, sk: `STANDING#${board}` });
    }
    const buckets = (await xpHistogram(db, board)).map((b) => b.xp);
    for (const xp of buckets) {
      for (let shard = 0; shard < 32; shard++) await deleteItem(db, { pk: `BOARDXP#${board}#${pad(shard, 2)}`, sk: pad(xp, 10) });
    }
    await putAll(
      db,
      [...histogram].map(([xp, n]) => ({ pk: legacyHistogramPartition(board), sk: pad(xp, 10), xp, n })),
    );
    await deleteItem(db, { pk: `BOARDSNAP#${board}`, sk: 'SNAPSHOT' });
  }
  for (const s of learners) await updateItem(db, userKey(s.userId), 'REMOVE boardXp, boardWeek, boardWeekXp');
}

describe('migration 0006-sharded-boards', () => {
  const stack = useStack({ now: wednesday });

  it('moves boards of the previous layout rank for rank, names included, and a grant before it reaches a learner moves them itself', async () => {
    const s = stack;
    const { db } = s.deps;
    const learners: Session[] = [];
    // Ties on both boards (several learners at each island score), reached at different times.
    for (const [i, correct] of [5, 3, 5, 4, 3, 5, 1, 3, 5, 4].entries()) {
      const learner = await signIn(s);
      if (i % 3 === 0) await call(s, 'PATCH', '/api/user/profile', { token: learner.accessToken, body: { displayName: `Learner ${i}` } });
      s.clock.advance(7);
      expect((await playNode(s, learner.accessToken, node1, correct)).status).toBe(200);
      learners.push(learner);
    }
    const before = await standings(s, learners);
    expect(Object.values(before.ranks).filter((rank) => rank > 0)).toHaveLength(2 * learners.length);

    const unnamed = new Set([learners[1]!.userId, learners[4]!.userId]);
    await toLegacyLayout(s, learners, unnamed);
    expect(await boardEntries(db, OVERALL_BOARD)).toEqual([]);

    // One learner earns XP on the new release before the migration reaches them: they move themselves.
    const early = learners[6]!;
    expect((await playNode(s, await freshToken(s, early), node2)).status).toBe(200);
    expect(await getLegacyEntry(db, early.userId, OVERALL_BOARD)).toBeUndefined();
    expect(await getBoardEntry(db, early.userId, OVERALL_BOARD)).toMatchObject({ xp: nodeXp(node1, 1) + nodeXp(node2) });

    await deleteItem(db, migrationKey('0004-board-entry-names'));
    await deleteItem(db, migrationKey('0006-sharded-boards'));
    expect(await applyMigrations(db, () => s.clock.now())).toEqual(['0004-board-entry-names', '0006-sharded-boards']);

    for (const board of [OVERALL_BOARD, weeklyBoard(s.clock.now())]) {
      for (const learner of learners) expect(await getLegacyEntry(db, learner.userId, board)).toBeUndefined();
      const legacy = await queryAll(db, { partition: legacyHistogramPartition(board) }, z.object({ n: z.number() }));
      expect(legacy).toEqual([]);
      // Every bucket counts exactly the entries at its XP.
      const entries = await boardEntries(db, board);
      expect(entries).toHaveLength(learners.length);
      for (const bucket of await xpHistogram(db, board)) expect(bucket.n).toBe(entries.filter((e) => e.xp === bucket.xp).length);
      for (const e of entries) expect(e.publicId).toMatch(/^User\d{6}$/);
    }

    // The early learner is now first on both boards; everyone else keeps their order, one place down when the
    // early learner passed them.
    const after = await standings(s, learners);
    for (const period of ['overall', 'weekly']) {
      const earlyBefore = before.ranks[`${period} ${early.userId}`] as number;
      expect(after.ranks[`${period} ${early.userId}`]).toBe(1);
      for (const learner of learners.filter((l) => l !== early)) {
        const rank = before.ranks[`${period} ${learner.userId}`] as number;
        expect(after.ranks[`${period} ${learner.userId}`], `${period} ${learner.userId}`).toBe(rank < earlyBefore ? rank + 1 : rank);
      }
      const earlyId = before.publicIds[early.userId];
      const earlyName = (before.tops[period] ?? []).find((r) => r.publicId === earlyId)?.name;
      const rest = (before.tops[period] ?? []).filter((r) => r.publicId !== earlyId).map((r) => r.name);
      expect((after.tops[period] ?? []).map((r) => r.name)).toEqual([earlyName, ...rest]);
    }

    expect(await applyMigrations(db, () => s.clock.now())).toEqual([]);
  });
});
