/**
 * `npm run job:marketplace-renewal [-- --aws]`: one run of the hourly marketplace renewal job
 * (`packages/functions/src/jobs/marketplaceRenewal.ts`, the same code the deployed `Cron` runs; DESIGN §1, §8) on
 * the local stack's table, printing how many subscriptions (and in-app purchases under their refund watch) came out
 * each way.
 *
 * Table: scripts/lib/localTable.ts (it says which table and endpoint it used, and warns when no `npm start` runs on
 * DATA_DIR). Settings: the environment (and `.env`), over those the running `npm start` filled in; SECRET_KEY and
 * the fake marketplace's static secret come from DATA_DIR when unset, as `npm start` generated them, so a local run
 * asks the stack's fake marketplace (which must be running) with the stack's credential. A bad setting, or
 * purchases that failed (the job's log lines say which), exit 1 (scripts/lib/jobScript.ts).
 */
import { runMarketplaceRenewal } from '../packages/functions/src/jobs/marketplaceRenewal';
import { runJobScript } from './lib/jobScript';

await runJobScript('marketplace-renewal', 'Marketplace renewal', runMarketplaceRenewal);
