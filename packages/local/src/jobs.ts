/**
 * The scheduled jobs on the local stack (DESIGN §6: control routes exist only on the local server), run in its own
 * process with its own dependencies (its clock, its fake sms provider, its secret), so a walkthrough or a test can
 * run them from a shell as the deployed schedule would:
 *
 * - `POST /_local/jobs/parent-reports` `{ thisWeek?: true }` → the weekly parent reports (`thisWeek`: the current
 *   Tehran week's now, whatever the day; otherwise only inside Friday 18:00-22:00 Tehran), answering the run's result;
 * - `POST /_local/jobs/streak-freezes` → the nightly streak freeze job.
 *
 * The same code as `npm run job:parent-reports` / `npm run job:streak-freezes` and the deployed functions.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Deps } from '@mathisland/core';
import { weekKey } from '@mathisland/core/calendar';
import { runParentReports } from '../../functions/src/jobs/parentReports';
import { runStreakFreezes } from '../../functions/src/jobs/streakFreezes';

const answer = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'private, no-store' });
  res.end(JSON.stringify(body));
};

/** The `/_local/jobs` mount of a stack whose dependencies `ready` gives. */
export function jobsControl(ready: Promise<Deps>) {
  return async (req: IncomingMessage, res: ServerResponse, path: string, _url: URL, body: Buffer): Promise<boolean> => {
    if (req.method !== 'POST' || (path !== '/parent-reports' && path !== '/streak-freezes')) return false;
    let options: { thisWeek?: unknown } = {};
    try {
      options = body.length ? (JSON.parse(body.toString('utf8')) as typeof options) : {};
    } catch {
      answer(res, 400, { code: 'invalid_json', detail: 'The body is not JSON' });
      return true;
    }
    const deps = await ready;
    try {
      const result =
        path === '/parent-reports'
          ? await runParentReports(deps, options.thisWeek === true ? { week: weekKey(deps.clock.now()) } : {})
          : await runStreakFreezes(deps);
      answer(res, 200, result);
    } catch (error) {
      answer(res, 500, { code: 'server_error', detail: `the job failed: ${(error as Error).message}` });
    }
    return true;
  };
}
