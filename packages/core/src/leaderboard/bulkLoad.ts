/**
 * Bulk-loading a board as the XP grants would have left it, for the benchmark at 100,000 learners (`npm run
 * bench`): each learner's entry in gsi1 rank order and the XP histogram, written with BatchWriteItem (no
 * transaction, so never on a request path).
 */

import { putAll } from '../db/batch';
import type { Db } from '../db/client';
import { boardEntryRecord } from './boardEntry.entity';
import { xpBucketKey } from './histogram.entity';

/** Learners standing on `board`: id, names, XP and when (epoch ms) they reached it. */
export interface BoardStanding {
  userId: number;
  publicId: string;
  displayName?: string;
  xp: number;
  reachedAt: number;
}

/** Writes `standings` onto `board` (entries and histogram buckets), `writers` BatchWriteItem loops in parallel. */
export async function bulkLoadBoard(db: Db, board: string, standings: BoardStanding[], writers = 6): Promise<void> {
  const histogram = new Map<number, number>();
  const items = standings.map((s) => {
    histogram.set(s.xp, (histogram.get(s.xp) ?? 0) + 1);
    return boardEntryRecord(board, s.userId, s, s.xp, s.reachedAt);
  });
  for (const [xp, n] of histogram) items.push({ ...xpBucketKey(board, xp), xp, n });
  const share = Math.ceil(items.length / writers);
  await Promise.all(Array.from({ length: writers }, (_, i) => putAll(db, items.slice(i * share, (i + 1) * share))));
}
