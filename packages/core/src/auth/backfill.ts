/**
 * The staff's directory of learners (directory.entity.ts) for users written before it: migrations
 * `0003-admin-indexes` (users older than the staff API) and `0007-user-directory` (issue 30: the index moved off the
 * user item, which every answer rewrites). Visits every user id the `user` counter handed out (BatchGetItem, 100 at
 * a time), never a Scan; idempotent: an entry already there is kept (a sign-in or rename since wrote it).
 */

import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { counterValue } from '../db/counters';
import { getItems, putItem } from '../db/items';
import { directoryRecord } from './directory.entity';
import { UserItem, unindexUser, userKey } from './user.entity';

/** Gives every existing user a directory entry, and takes the user item out of the index it used to be in. */
export async function backfillUserDirectory(db: Db): Promise<void> {
  for await (const ids of userIdBatches(db)) {
    for (const user of await getItems(db, ids.map(userKey), UserItem)) {
      await ignoringFailedCondition(() => putItem(db, directoryRecord(user), { condition: 'attribute_not_exists(pk)' }));
      await ignoringFailedCondition(() => unindexUser(db, user.id));
    }
  }
}

async function ignoringFailedCondition(write: () => Promise<unknown>): Promise<void> {
  try {
    await write();
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Every existing user id (for other domains' backfills), in batches of 100 ids, whether or not the user still exists. */
export async function* userIdBatches(db: Db): AsyncGenerator<number[]> {
  const last = await counterValue(db, 'user');
  for (let first = 1; first <= last; first += 100) yield Array.from({ length: Math.min(100, last - first + 1) }, (_, i) => first + i);
}
