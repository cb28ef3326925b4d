/**
 * Bulk-loading a board as the XP grants would have left it, for the benchmark and the request-count tests at
 * 100,000 learners (`npm run bench`, tests/requests.test.ts): each learner's entry in its tie index and the sharded XP
 * histogram, written with BatchWriteItem (no transaction, so never on a request path). The board's snapshot is not
 * written: the next reader's job takes it.
 */

import { putAll } from '../db/batch';
import type { Db } from '../db/client';
import { boardExpiresAt } from './board';
import { boardEntryRecord } from './boardEntry.entity';
import { xpBucketKey } from './histogram.entity';

/** Learners standing on a board: id, names, XP and when (epoch ms) they reached it. */
export interface BoardStanding {
  userId: number;
  publicId: string;
  displayName?: string;
  xp: number;
  reachedAt: number;
}

/** Writes `standings` onto `board` (entries and histogram buckets), `writers` BatchWriteItem loops in parallel. */
export async function bulkLoadBoard(db: Db, board: string, standings: BoardStanding[], writers = 6): Promise<void> {
  const expiresAt = boardExpiresAt(board);
  const buckets = new Map<string, { key: { pk: string; sk: string }; xp: number; n: number }>();
  const items: Record<string, unknown>[] = standings.map((s) => {
    const key = xpBucketKey(board, s.userId, s.xp);
    const id = `${key.pk}|${key.sk}`;
    const bucket = buckets.get(id) ?? { key, xp: s.xp, n: 0 };
    bucket.n++;
    buckets.set(id, bucket);
    return boardEntryRecord(board, s.userId, s, s.xp, s.reachedAt, expiresAt);
  });
  for (const b of buckets.values()) items.push({ ...b.key, xp: b.xp, n: b.n, ...(expiresAt === undefined ? {} : { expiresAt }) });
  const share = Math.ceil(items.length / writers);
  await Promise.all(Array.from({ length: writers }, (_, i) => putAll(db, items.slice(i * share, (i + 1) * share))));
}
