/**
 * The staff's directory of learners (DESIGN §9 users; issue 30): one small item per learner in gsi2 `USERS`, newest
 * first, which the staff's user and session lists read and search (userDirectory.ts, learnerSessions.ts).
 *
 * | item            | pk            | sk        | gsi2                   | attributes                                          |
 * |-----------------|---------------|-----------|------------------------|-----------------------------------------------------|
 * | directory entry | USER#<userId> | DIRECTORY | USERS / <userId, 12>   | id, publicId, phone, createdAt, displayName?, sessionId? |
 *
 * It used to be the user item itself in that index; but every answer, grant and session check writes the user item,
 * and each write rewrote its index copy in the one partition `USERS` (projection ALL): at national scale the hottest
 * key of the table (docs/capacity.md). The entry changes only with what the lists filter on: created with the user,
 * its `sessionId` set by a sign-in and removed by a sign-out or a revocation, its `displayName` by a rename, each in
 * the same transaction as the user item. The lists read a page of entries, then the users themselves (BatchGetItem).
 * Personal data: deleted with the account (the deletion transaction).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { encodeCursor } from '../db/cursor';
import { type Page, queryPage } from '../db/items';
import { type Key, pad, userPartition } from '../db/keys';
import { type Condition, put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { getUsers, type User } from './user.entity';

const USERS_INDEX = 'USERS';
/** gsi2 of the directory entry: every user, by id. */
export const usersIndex = (userId: number) => ({ gsi2pk: USERS_INDEX, gsi2sk: pad(userId, 12) });
export const directoryKey = (userId: number): Key => ({ pk: userPartition(userId), sk: 'DIRECTORY' });

/** What an entry holds of its user. */
export type DirectoryFields = Pick<User, 'id' | 'publicId' | 'phone' | 'createdAt' | 'displayName' | 'sessionId'>;

const DirectoryEntry = lazySchema(() => z.object({ id: z.number().int().positive() }).describe('directory entry'));

/** The stored entry of `user`. */
export const directoryRecord = (user: DirectoryFields): Key & Record<string, unknown> => ({
  ...directoryKey(user.id),
  ...usersIndex(user.id),
  id: user.id,
  publicId: user.publicId,
  phone: user.phone,
  createdAt: user.createdAt,
  ...(user.displayName ? { displayName: user.displayName } : {}),
  ...(user.sessionId ? { sessionId: user.sessionId } : {}),
});

/** Transaction item: the entry of a new user (`when`: e.g. that it is not there yet). */
export const putDirectoryEntry = (db: Db, user: DirectoryFields, when: Condition = {}): TxItem => put(db, directoryRecord(user), when);

/** Transaction item: the entry shows session `sessionId` (undefined: none, after a sign-out or a revocation). */
export const directorySession = (db: Db, userId: number, sessionId: string | undefined): TxItem =>
  sessionId
    ? update(db, directoryKey(userId), 'SET sessionId = :sid', { condition: 'attribute_exists(pk)', values: { ':sid': sessionId } })
    : update(db, directoryKey(userId), 'REMOVE sessionId');

/** Transaction item: the entry shows `displayName` (undefined: none). */
export const directoryName = (db: Db, userId: number, displayName: string | undefined): TxItem =>
  displayName
    ? update(db, directoryKey(userId), 'SET displayName = :name', { condition: 'attribute_exists(pk)', values: { ':name': displayName } })
    : update(db, directoryKey(userId), 'REMOVE displayName');

/** Transaction item: removes the entry (account deletion). */
export const removeDirectoryEntry = (db: Db, userId: number): TxItem => remove(db, directoryKey(userId));

/** The cursor of the directory (gsi2 `USERS`) that continues after `user`, as {@link usersPage} makes them. */
export const usersCursorAfter = (user: Pick<User, 'id'>): string =>
  encodeCursor({ ...directoryKey(user.id), ...usersIndex(user.id) }, USERS_INDEX);

/**
 * One page of every user, newest first (by id, the order of creation; oldest first with `ascending`): a page of
 * directory entries (gsi2 `USERS`; `limit` read before `filter`, on
 * the entries' fields, keeps some) from `cursor`, then those users (one BatchGetItem), in the entries' order; a user
 * deleted between the two reads is left out. Errors: `validation_error` on `cursor`.
 */
export async function usersPage(
  db: Db,
  options: { limit: number; cursor?: string; filter?: Condition; ascending?: boolean },
): Promise<Page<User>> {
  const page = await queryPage(
    db,
    {
      index: 'gsi2',
      partition: USERS_INDEX,
      descending: !options.ascending,
      limit: options.limit,
      ...(options.filter ? { filter: options.filter } : {}),
    },
    DirectoryEntry,
    options.cursor,
  );
  const users = new Map(
    (page.items.length
      ? await getUsers(
          db,
          page.items.map((e) => e.id),
        )
      : []
    ).map((u) => [u.id, u]),
  );
  return {
    items: page.items.flatMap((e) => users.get(e.id) ?? []),
    ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
  };
}
