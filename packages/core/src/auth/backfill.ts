/**
 * Migration `0003-admin-indexes`, auth's part: the users index (gsi2 `USERS`, user.entity.ts) on users created
 * before it. Visits every user id the `user` counter handed out (BatchGetItem, 100 at a time), never a Scan;
 * idempotent.
 */

import type { Db } from '../db/client';
import { counterValue } from '../db/counters';
import { getItems } from '../db/items';
import { indexUser, UserItem, userKey } from './user.entity';

/** Adds the gsi2 keys to every existing user item. */
export async function backfillUserIndex(db: Db): Promise<void> {
  const last = await counterValue(db, 'user');
  for (let first = 1; first <= last; first += 100) {
    const ids = Array.from({ length: Math.min(100, last - first + 1) }, (_, i) => first + i);
    for (const user of await getItems(db, ids.map(userKey), UserItem)) {
      await indexUser(db, user.id);
    }
  }
}

/** Every existing user id (for other domains' backfills), in batches of 100 ids, whether or not the user still exists. */
export async function* userIdBatches(db: Db): AsyncGenerator<number[]> {
  const last = await counterValue(db, 'user');
  for (let first = 1; first <= last; first += 100) yield Array.from({ length: Math.min(100, last - first + 1) }, (_, i) => first + i);
}
