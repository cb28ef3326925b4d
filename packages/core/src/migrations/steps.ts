/**
 * What each data migration of `ids.ts` does: one step per id (the type makes a missing or extra step a
 * compile error). Steps are idempotent: unconditional puts of fixed items. Loaded only by the runner
 * (`apply.ts`), which imports this module when it applies something.
 */

import { backfillUserDirectory, userIdBatches } from '../auth';
import { writeSeedContent } from '../curriculum';
import type { Db } from '../db/client';
import { backfillBoardNames, dropLegacyHistograms, moveToShardedBoards } from '../leaderboard';
import { backfillMarketplacePeriods, backfillSubscriptionIndexes, saveDiscountCode, savePlan, seedPlans } from '../subscriptions';
import { backfillTicketIndex } from '../support';
import { backfillFeedbackIndex } from '../tutor';
import type { MigrationId } from './ids';

/** Each step gets the table and the migration run's clock (epoch ms; the local runtime's and the tests' own). */
export const steps: Record<MigrationId, (db: Db, now: () => number) => Promise<void>> = {
  /** The seed curriculum (`curriculum/seed/grade4.json`, `grade5.json`). */
  '0001-content-grades-4-5': writeSeedContent,
  async '0002-plans-and-welcome-offer'(db) {
    for (const plan of seedPlans) await savePlan(db, plan);
    await saveDiscountCode(db, {
      code: 'WELCOME10',
      title: 'ده درصد تخفیف اولین خرید',
      percent: 10,
      perUserLimit: 1,
      advertised: true,
      active: true,
    });
  },
  /** The staff API's indexes on items written before it (each domain's `backfill.ts`). */
  async '0003-admin-indexes'(db, now) {
    await backfillUserDirectory(db);
    await backfillSubscriptionIndexes(db, now());
    await backfillTicketIndex(db);
    for await (const ids of userIdBatches(db)) await backfillFeedbackIndex(db, ids);
  },
  /** The top list reads the names from the board entries (leaderboard/backfill.ts). */
  async '0004-board-entry-names'(db, now) {
    const at = now();
    for await (const ids of userIdBatches(db)) await backfillBoardNames(db, ids, at);
  },
  /** Marketplace subscriptions verified before period truth (subscriptions/periodBackfill.ts). */
  async '0005-marketplace-period-truth'(db, now) {
    await backfillMarketplacePeriods(db, now());
  },
  /** The boards' hot keys write-sharded (leaderboard/migrate.ts). */
  async '0006-sharded-boards'(db, now) {
    const at = now();
    for await (const ids of userIdBatches(db)) await moveToShardedBoards(db, ids, at);
    await dropLegacyHistograms(db, at);
  },
  /** The staff's list of learners off the user item (auth/backfill.ts). */
  '0007-user-directory': backfillUserDirectory,
};
