/**
 * `npm run job:parent-reports [-- --this-week] [-- --aws]`: one run of the weekly parent report job
 * (`packages/functions/src/jobs/parentReports.ts`, the same code the deployed `Cron` runs; DESIGN §13) on the local
 * stack's table, printing the week and how many reports came out each way.
 *
 * Without `--this-week` it sends only inside the sending window (Friday 18:00 to 22:00 Tehran), as the schedule does
 * (`"week":null` outside it); `--this-week` sends the current Tehran week's reports now, whatever the day (a demo, or
 * an operator's catch-up): a parent still gets at most one report a week.
 *
 * Table and settings: scripts/lib/jobScript.ts `runJobScript` (the running `npm start` of DATA_DIR, its fake sms provider
 * and address; SECRET_KEY, which signs the stop links, from DATA_DIR).
 */
import { weekKey } from '@mathisland/core/calendar';
import { runParentReports } from '../packages/functions/src/jobs/parentReports';
import { runJobScript } from './lib/jobScript';

await runJobScript('parent-reports', 'Parent reports', (deps) =>
  runParentReports(deps, process.argv.includes('--this-week') ? { week: weekKey(deps.clock.now()) } : {}),
);
