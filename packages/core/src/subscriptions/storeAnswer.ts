/**
 * What the marketplace answered about a purchase, as a marketplace purchase keeps it (`lastAnswer`,
 * marketplacePurchase.entity.ts) and staff see it: public values only, never the token. Times are epoch ms.
 */
import * as z from 'zod';
import { lazySchema } from '../lazySchema';

const epochMs = z.number().int();

/** What the marketplace answered about a purchase (public values only: never the token). */
export const StoreAnswer = lazySchema(() =>
  z.object({
    /** Epoch ms of the answer. */
    at: epochMs,
    /**
     * `valid` (200 with a purchase), `refunded` (200, an in-app purchase with `purchaseState: 1`), `not_found` (404:
     * refunded, revoked or unknown).
     */
    outcome: z.enum(['valid', 'refunded', 'not_found']),
    /** HTTP status of the answer. */
    httpStatus: z.number().int(),
    /** The period end it reported, epoch ms (subscriptions). */
    validUntil: epochMs.optional(),
    autoRenewing: z.boolean().optional(),
  }),
);
export type StoreAnswer = z.infer<typeof StoreAnswer>;

/** A 200 answer of the subscription status API (`validUntil` epoch ms) at `at`, as kept. */
export const validAnswer = (status: { validUntil: number; autoRenewing: boolean }, at: number): StoreAnswer => ({
  at,
  outcome: 'valid',
  httpStatus: 200,
  validUntil: status.validUntil,
  autoRenewing: status.autoRenewing,
});
