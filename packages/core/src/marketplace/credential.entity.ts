/**
 * The marketplace credential (spec "Marketplace credential", Authentication 9): the refresh token of the one-time
 * OAuth authorization, and the authorization window staff open for it.
 *
 * | item               | pk                     | sk      | notes                                                        |
 * |--------------------|------------------------|---------|--------------------------------------------------------------|
 * | credential         | MARKETPLACE#CREDENTIAL | OAUTH   | `refreshToken`, when and through which window it was obtained |
 * | authorize window   | MARKETPLACE#CREDENTIAL | WINDOW  | `state`, `closesAt` (ms); TTL `expiresAt` (s) at its close    |
 *
 * The window is deleted when the authorization completes (in the credential's transaction, under a condition on
 * its state and close time, so a code can complete at most one window). Access tokens are never stored: each
 * worker caches its own (accessToken.ts).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, updateItem } from '../db/items';
import type { Key } from '../db/keys';
import { put, remove, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';

const PARTITION = 'MARKETPLACE#CREDENTIAL';
const credentialKey: Key = { pk: PARTITION, sk: 'OAUTH' };
const windowKey: Key = { pk: PARTITION, sk: 'WINDOW' };

const epochMs = z.number().int();

export const CredentialItem = lazySchema(() =>
  z
    .object({
      refreshToken: z.string().min(1),
      /** Epoch ms. */
      obtainedAt: epochMs,
      /** Staff username who opened the window it came through. */
      authorizedVia: z.string().optional(),
      /** Epoch ms of the last rotation by the marketplace. */
      rotatedAt: epochMs.optional(),
    })
    .describe('marketplace credential'),
);
export type Credential = z.infer<typeof CredentialItem>;

export const WindowItem = lazySchema(() =>
  z
    .object({
      /** The OAuth `state` sent with the consent link and checked when the marketplace echoes it. */
      state: z.string(),
      /** Epoch ms. */
      openedAt: epochMs,
      /** Epoch ms; the window is closed from then on. */
      closesAt: epochMs,
      /** Staff username (or `script`) who opened it. */
      openedBy: z.string(),
    })
    .describe('marketplace authorize window'),
);
export type AuthorizeWindow = z.infer<typeof WindowItem>;

/** The stored credential, or undefined before the first authorization. */
export const readCredential = (db: Db): Promise<Credential | undefined> => getItem(db, credentialKey, CredentialItem);

/** The last window opened (it may have closed since: compare `closesAt`), or undefined. */
export const readWindow = (db: Db): Promise<AuthorizeWindow | undefined> => getItem(db, windowKey, WindowItem);

/** The transaction item storing `window`, replacing any earlier one; DynamoDB deletes it a while after it closed (TTL). */
export const windowItem = (db: Db, window: AuthorizeWindow): TxItem =>
  put(db, { ...windowKey, ...window, expiresAt: Math.ceil(window.closesAt / 1000) + 86_400 });

/** The transaction item storing `credential` over any earlier one. */
export const putCredential = (db: Db, credential: Credential): TxItem => put(db, { ...credentialKey, ...credential });

/** The transaction item closing the window of `state` (condition: still that window and open at `nowMs`). */
export const closeWindow = (db: Db, state: string, nowMs: number): TxItem =>
  remove(db, windowKey, {
    condition: '#state = :state AND closesAt > :now',
    names: { '#state': 'state' },
    values: { ':state': state, ':now': nowMs },
  });

/**
 * Replaces the stored refresh token when the marketplace rotated it at `nowMs` (condition: still the one that was
 * used, so a concurrent rotation is not overwritten). Errors: ConditionalCheckFailedException.
 */
export const rotateRefreshToken = (db: Db, used: string, next: string, nowMs: number): Promise<Record<string, unknown>> =>
  updateItem(db, credentialKey, 'SET refreshToken = :next, rotatedAt = :now', {
    condition: 'refreshToken = :used',
    values: { ':used': used, ':next': next, ':now': nowMs },
  });
