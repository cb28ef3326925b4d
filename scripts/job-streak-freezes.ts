/**
 * `npm run job:streak-freezes [-- --aws]`: one run of the nightly streak freeze job
 * (`packages/functions/src/jobs/streakFreezes.ts`, the same code the deployed `Cron` runs; DESIGN §13) on the local
 * stack's table: every learner who missed yesterday and holds a freeze has it used now, with its notification.
 * Table and settings: scripts/lib/jobScript.ts `runJobScript`.
 */
import { runStreakFreezes } from '../packages/functions/src/jobs/streakFreezes';
import { runJobScript } from './lib/jobScript';

await runJobScript('streak-freezes', 'Streak freezes', (deps) => runStreakFreezes(deps));
