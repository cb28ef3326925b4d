/**
 * A learner's refresh session (spec Authentication 1, 10): pk `SESSION#<sha256(refreshToken)>`, sk `SESSION`,
 * TTL. The token itself is never stored.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem } from '../db/items';
import type { Key } from '../db/keys';

export const sessionKey = (tokenHash: string): Key => ({ pk: `SESSION#${tokenHash}`, sk: 'SESSION' });

export const SessionItem = z
  .object({
    userId: z.number().int().positive(),
    /** Equal to `user.sessionId` while the session is live. */
    sessionId: z.string(),
    /** TTL, epoch seconds. */
    expiresAt: z.number().int(),
  })
  .describe('session');
export type SessionItem = z.infer<typeof SessionItem>;

export const readSession = (db: Db, tokenHash: string): Promise<SessionItem | undefined> => getItem(db, sessionKey(tokenHash), SessionItem);
