/**
 * The weekly parent report job (DESIGN §13): every confirmed parent gets one SMS a Tehran week with the learner's
 * days active, XP, islands completed and streak, and the signed stop link (stop.ts); locally
 * `npm run job:parent-reports`, in AWS a scheduled function of the Jobs stack (schedule.ts says when).
 *
 * Who: the due index of the parent links (parentLink.entity.ts, gsi1, shard by shard, a page at a time: never a
 * Scan): the active links whose report is due by the week being sent. For each:
 * 1. the learner and the link are read again (one BatchGetItem: the index lags), then the week's figures (progress
 *    `weekFigures`, one Query);
 * 2. the send is claimed in a transaction (the learner still exists; the link active, due and still that number; no
 *    claim of this week yet), so a second run, or two at once, cannot send it again;
 * 3. the sms provider's verify/lookup call with the report template (SMS_PARENT_REPORT_TEMPLATE) and the tokens
 *    `token` days active, `token2` XP, `token3` islands, `token10` streak, `token20` the stop link's code;
 * 4. the outcome is recorded under the claim: `sent` → due next week (out of this week's range); refused by the
 *    provider (busy, down, unreachable, misconfigured) → `failed`, the claim let go, sent by a later run of the
 *    window; `uncertain` (a timeout, a cut connection, an unreadable answer: it may have gone out) → not sent
 *    again, due next week; a number the provider refuses (411) → `failed`, due next week.
 * A claim found lapsed (a run that died between sending and recording) counts as `uncertain`: never two SMS for one
 * week, at the price of possibly none in that rare case.
 *
 * Bound: a parent costs 4 DynamoDB requests and one sms call (~0.1-0.3 s); {@link PARENT_REPORT_CONCURRENCY} at once
 * makes 50-150 reports a second; a run stops taking new parents at its deadline (the Lambda's time less a margin)
 * and the next run, 15 minutes later, continues from the index: the 4-hour window holds 16 runs of up to 14 minutes,
 * about 700,000 parents at 50 a second (docs/decisions.md "Parent reports" has the arithmetic and what to change
 * beyond that).
 */
import { UserItem, userKey } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { getRawItems, keyId, parseItem } from '../db/items';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { logger } from '../log';
import { sweep } from '../parallel';
import { weekFigures } from '../progress';
import type { LookupOutcome } from '../providers/ports';
import {
  claimItems,
  dueLinks,
  getParentLink,
  type LastReport,
  PARENT_INDEX_SHARDS,
  ParentLinkItem,
  parentLinkKey,
  releaseItem,
  reportDoneItem,
} from './parentLink.entity';
import { reportWeekAt } from './schedule';
import { stopToken } from './stop';

/** Parents reported at once. */
export const PARENT_REPORT_CONCURRENCY = 16;
/** How long a claim holds (longer than an sms call can take). */
export const CLAIM_MS = 5 * 60_000;

export type ReportOutcome = 'sent' | 'uncertain' | 'failed' | 'refused_number' | 'skipped';

export interface ParentReportRun {
  /** The week sent (its Saturday), or null outside the sending window. */
  week: string | null;
  /** Reports off (no sms key or no report template): nothing was sent. */
  off: boolean;
  listed: number;
  counts: Record<ReportOutcome, number>;
  /** The run stopped at its deadline with parents left (the next run continues). */
  more: boolean;
}

/** Records what became of `week`'s report to `phone` under the claim, and returns its outcome name. */
async function record(deps: Deps, userId: number, week: string, phone: string, outcome: LookupOutcome): Promise<ReportOutcome> {
  const at = deps.clock.now();
  if (outcome.status === 'sent' || outcome.status === 'uncertain') {
    await transact(deps.db, [reportDoneItem(deps.db, userId, week, { week, status: outcome.status, at, phone })]);
    return outcome.status;
  }
  const report: LastReport = { week, status: 'failed', at, phone, providerStatus: outcome.providerStatus };
  if (outcome.kind === 'receptor') {
    await transact(deps.db, [reportDoneItem(deps.db, userId, week, report)]);
    return 'refused_number';
  }
  await transact(deps.db, [releaseItem(deps.db, userId, week, report)]);
  if (outcome.kind === 'configuration') throw new Error(`the sms provider refused the parent report (status ${outcome.providerStatus})`);
  return 'failed';
}

/** Claims `week`'s report of `userId` to `phone`; 'claimed', or why not ('lapsed': an earlier claim may have sent it). */
async function claim(deps: Deps, userId: number, phone: string, week: string): Promise<'claimed' | 'busy' | 'lapsed' | 'skipped'> {
  const now = deps.clock.now();
  try {
    await transact(deps.db, claimItems(deps.db, userId, phone, week, now + CLAIM_MS));
    return 'claimed';
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const link = await getParentLink(deps.db, userId);
    if (link?.status !== 'active' || link.phone !== phone || link.sendingWeek !== week) return 'skipped';
    return (link.sendingUntil ?? 0) > now ? 'busy' : 'lapsed';
  }
}

/** One parent's report of `week` (see the module doc). */
async function reportOne(deps: Deps, userId: number, week: string, template: string): Promise<ReportOutcome> {
  const found = await getRawItems(deps.db, [userKey(userId), parentLinkKey(userId)]);
  const rawUser = found.get(keyId(userKey(userId)));
  const rawLink = found.get(keyId(parentLinkKey(userId)));
  const link = rawLink ? parseItem(ParentLinkItem, rawLink) : undefined;
  // Gone (the account's deletion removes its link), changed or already done since the index listed it.
  if (!rawUser || link?.status !== 'active' || !link.phone || !link.dueWeek || link.dueWeek > week) return 'skipped';
  const figures = await weekFigures(deps, parseItem(UserItem, rawUser), week);
  const phone = link.phone;
  const claimed = await claim(deps, userId, phone, week);
  if (claimed === 'lapsed') return record(deps, userId, week, phone, { status: 'uncertain', reason: 'an earlier claim lapsed' });
  if (claimed !== 'claimed') return 'skipped';
  const outcome = await deps.sms.sendLookup(phone, template, {
    token: String(figures.daysActive),
    token2: String(figures.xp),
    token3: String(figures.islands),
    token10: String(figures.streak),
    token20: stopToken(deps, userId, phone),
  });
  return record(deps, userId, week, phone, outcome);
}

/**
 * One run at the clock's now: sends the reports of the week whose sending window is open (or of `week` when given:
 * `npm run job:parent-reports -- --this-week`, a demo or an operator's catch-up). `deadlineMs` (epoch ms): no parent
 * is started after it. Errors: the first error of a parent (a refusal that needs an operator, an outage of the
 * table), after every listed parent was tried, so the scheduler retries and alarms.
 */
export async function sendWeeklyParentReports(deps: Deps, options: { week?: string; deadlineMs?: number } = {}): Promise<ParentReportRun> {
  const counts: Record<ReportOutcome, number> = { sent: 0, uncertain: 0, failed: 0, refused_number: 0, skipped: 0 };
  const week = options.week ?? reportWeekAt(deps.clock.now());
  const template = deps.settings.sms.parentReportTemplate;
  const run: ParentReportRun = { week: week ?? null, off: !template || !deps.sms.configured, listed: 0, counts, more: false };
  if (!week || !template || run.off) return finish(run, []);
  const swept = await sweep(
    Array.from({ length: PARENT_INDEX_SHARDS }, (_, shard) => shard),
    (shard, cursor) => dueLinks(deps.db, shard, week, cursor),
    async (link) => {
      counts[await reportOne(deps, link.userId, week, template)]++;
    },
    {
      concurrency: PARENT_REPORT_CONCURRENCY,
      ...(options.deadlineMs === undefined ? {} : { deadlineMs: options.deadlineMs }),
      onError: (link, error) => logger.error('parent report failed', { userId: link.userId, reason: (error as Error).message }),
    },
  );
  return finish({ ...run, listed: swept.listed, more: swept.more }, swept.failures);
}

function finish(run: ParentReportRun, failures: unknown[]): ParentReportRun {
  logger.info('parent reports', {
    week: run.week,
    off: run.off,
    listed: run.listed,
    ...run.counts,
    more: run.more,
    errors: failures.length,
  });
  if (failures.length) throw failures[0];
  return run;
}
