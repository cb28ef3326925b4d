/**
 * Staff sign-in attempt counters (DESIGN §12; rules in signInGuard.ts), per fixed window of an hour. The username is
 * the one sent, exactly (its SHA-256 in the key, so any text is a valid key and none is stored); the address is the
 * viewer's throttle key (an IPv6 address by its /64).
 *
 * | item                 | pk                            | sk                          | notes                                   |
 * |----------------------|-------------------------------|-----------------------------|-----------------------------------------|
 * | (username, address)  | STAFFSIGNIN#<sha256(username)> | <window start>#<address>   | `attempts`: failures plus attempts in flight; TTL `expiresAt` |
 * | username, any address | STAFFSIGNIN#<sha256(username)> | <window start>             | `failures`, `lastFailureAt` (ms), `openAt` (ms): when the next attempt from a used address may run; TTL |
 *
 * Every change is one conditional UpdateItem, so a burst of parallel attempts cannot pass a limit (DESIGN §11).
 */
import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { deleteItem, getItem, parseItem, updateItem, updateOrOld } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';

/** One window of counts: its start (epoch seconds) and the items' TTL (epoch seconds). */
export interface AttemptWindow {
  start: number;
  expiresAt: number;
}

const partition = (username: string) => `STAFFSIGNIN#${createHash('sha256').update(username, 'utf8').digest('hex')}`;
const pairKey = (username: string, address: string, window: AttemptWindow): Key => ({
  pk: partition(username),
  sk: `${window.start}#${address}`,
});
const usernameKey = (username: string, window: AttemptWindow): Key => ({ pk: partition(username), sk: String(window.start) });

const PairItem = lazySchema(() => z.object({ attempts: z.number().int() }).describe('staff sign-in attempts of a username at an address'));
export const UsernameFailures = lazySchema(() =>
  z
    .object({
      failures: z.number().int().default(0),
      lastFailureAt: z.number().int().optional(),
      openAt: z.number().int().optional(),
    })
    .describe('staff sign-in failures of a username'),
);
export type UsernameFailures = z.infer<typeof UsernameFailures>;

/**
 * Reserves one attempt of `username` at `address` while fewer than `limit` are counted, and returns the count with
 * it (1: nobody failed from there in this window), or undefined when the limit is reached (nothing counted).
 */
export async function reserveAttempt(
  db: Db,
  username: string,
  address: string,
  window: AttemptWindow,
  limit: number,
): Promise<number | undefined> {
  const outcome = await updateOrOld(db, pairKey(username, address, window), 'ADD attempts :one SET expiresAt = :exp', {
    condition: 'attribute_not_exists(attempts) OR attempts < :limit',
    values: { ':one': 1, ':exp': window.expiresAt, ':limit': limit },
  });
  return 'updated' in outcome ? parseItem(PairItem, outcome.updated).attempts : undefined;
}

/** Gives back a reservation whose attempt never ran to its end (an error on our side). */
export async function releaseAttempt(db: Db, username: string, address: string, window: AttemptWindow): Promise<void> {
  try {
    await updateItem(db, pairKey(username, address, window), 'ADD attempts :minus', {
      condition: 'attempts > :zero',
      values: { ':minus': -1, ':zero': 0 },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}

/** Forgets the attempts of `username` at `address` in the window (a successful sign-in from there). */
export const clearAttempts = (db: Db, username: string, address: string, window: AttemptWindow): Promise<void> =>
  deleteItem(db, pairKey(username, address, window));

/** The failures of `username` from every address in the window (none: zero). */
export const readFailures = async (db: Db, username: string, window: AttemptWindow): Promise<UsernameFailures> =>
  (await getItem(db, usernameKey(username, window), UsernameFailures)) ?? { failures: 0 };

/**
 * Takes the username's next slot: moves `openAt` from `seen` (as read) to `next` (epoch ms) in one conditional
 * update. Returns undefined when it took it, or the `openAt` another attempt set first.
 */
export async function claimSlot(
  db: Db,
  username: string,
  window: AttemptWindow,
  seen: number | undefined,
  next: number,
): Promise<number | undefined> {
  const outcome = await updateOrOld(db, usernameKey(username, window), 'SET openAt = :next', {
    condition: seen === undefined ? 'attribute_not_exists(openAt)' : 'openAt = :seen',
    values: { ':next': next, ...(seen === undefined ? {} : { ':seen': seen }) },
  });
  return 'updated' in outcome ? undefined : (parseItem(UsernameFailures, outcome.refused ?? {}).openAt ?? next);
}

/** Counts one failure of `username` at `now` (epoch ms) and returns the window's failures with it. */
export async function countFailure(db: Db, username: string, window: AttemptWindow, now: number): Promise<number> {
  const updated = await updateItem(
    db,
    usernameKey(username, window),
    'ADD failures :one SET lastFailureAt = :now, expiresAt = :exp',
    { values: { ':one': 1, ':now': now, ':exp': window.expiresAt } },
    'ALL_NEW',
  );
  return parseItem(UsernameFailures, updated).failures;
}

/** Moves `openAt` of `username` to `openAt` unless it is already later. */
export async function delayUntil(db: Db, username: string, window: AttemptWindow, openAt: number): Promise<void> {
  try {
    await updateItem(db, usernameKey(username, window), 'SET openAt = :open', {
      condition: 'attribute_not_exists(openAt) OR openAt < :open',
      values: { ':open': openAt },
    });
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
}
