/**
 * A learner's refresh token (spec Authentication 1, 10; DESIGN §12): pk `SESSION#<sha256(refreshToken)>`, sk
 * `SESSION`, TTL `expiresAt`. The token itself is never stored.
 *
 * Every token of one sign-in carries that sign-in's `sessionId` (its family: login makes the first, each refresh
 * the next; refresh.ts). A token used for a refresh is not deleted but marked `rotatedAt`, and kept until the
 * family's expiry, so that a second use of it is recognised as a reuse.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';
import { lazySchema } from '../lazySchema';

export const sessionKey = (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });

export const SessionItem = lazySchema(() =>
  z
    .object({
      userId: z.number().int().positive(),
      /** The sign-in (token family); equal to `user.sessionId` while it is live. */
      sessionId: z.string(),
      /** TTL, epoch seconds: the family's expiry (a refresh does not extend it). */
      expiresAt: z.number().int(),
      /** Epoch ms of the refresh that spent this token; present once it was rotated. */
      rotatedAt: z.number().int().optional(),
    })
    .describe('session'),
);
export type SessionItem = z.infer<typeof SessionItem>;

export const readSession = (db: Db, tokenHash: string): Promise<SessionItem | undefined> => getItem(db, sessionKey(tokenHash), SessionItem);
