/**
 * The learner's side of the parent's weekly report (DESIGN §13): `GET|POST|DELETE /api/user/parent`,
 * `POST /api/user/parent/verify`.
 *
 * - `POST { phone }` sends the number a 6-digit code through the sms provider's verify template, with the sign-in
 *   code's rules (auth `sendConfirmationCode`: one a minute per number, 5 minutes to live, 5 wrong guesses; the
 *   route's throttle scope counts per address as sign-in's does), and notes the number as pending. Nothing else is
 *   ever sent to a number until it is confirmed.
 * - `POST /verify { code }` confirms the pending number: the code is consumed in the same transaction that makes the
 *   link active (so one code confirms once) and puts it in the job's due index. Its first report is this Tehran
 *   week's, unless that number already had this week's (a number removed and added again in one week).
 * - `DELETE` removes the number (reports stop at once; a pending code is void).
 * - A number the learner sends again while it is the active one needs no new code.
 */
import { authErrors, checkConfirmationCode, sendConfirmationCode, type User } from '../auth';
import { addDays, weekKey } from '../calendar/tehran';
import { cancellationReasons, isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { parentErrors } from './errors';
import { activateItem, getParentLink, type ParentLink, pendingItem, removeItem } from './parentLink.entity';
import { reportDueAt } from './schedule';

/** The parent's report as the learner sees it (times ISO). */
export interface ParentView {
  /** `none` (no confirmed number), `active` (reports go to `phone`), `stopped` (the parent stopped them). */
  status: ParentLink['status'];
  phone: string | null;
  /** A number waiting for its code. */
  pendingPhone: string | null;
  verifiedAt: string | null;
  stoppedAt: string | null;
  /** The last report: its week (Saturday), when, and how it went. */
  lastReport: { week: string; at: string; status: 'sent' | 'uncertain' | 'failed' } | null;
  /** When the next report is due (Friday 18:00 Tehran of its week), while active. */
  nextReportAt: string | null;
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** `link` as the learner sees it. */
export function parentView(link: ParentLink | undefined): ParentView {
  const active = link?.status === 'active';
  return {
    status: link?.status ?? 'none',
    phone: link?.status === 'none' ? null : (link?.phone ?? null),
    pendingPhone: link?.pendingPhone ?? null,
    verifiedAt: iso(link?.verifiedAt),
    stoppedAt: iso(link?.stoppedAt),
    lastReport: link?.lastReport
      ? { week: link.lastReport.week, at: iso(link.lastReport.at) as string, status: link.lastReport.status }
      : null,
    nextReportAt: active && link?.dueWeek ? iso(reportDueAt(link.dueWeek)) : null,
  };
}

/** The code scope of a learner's parent's number (auth's confirmation codes). */
const scopeOf = (userId: number): string => `PARENT#${userId}`;

/** Errors: `sms_unavailable` when reports are off (no sms key or no report template). */
function requireReportsOn(deps: Deps): void {
  if (!deps.sms.configured || !deps.settings.sms.parentReportTemplate) throw parentErrors.reportsOff();
}

/** `GET /api/user/parent`. */
export async function parentOf(deps: Deps, user: User): Promise<ParentView> {
  return parentView(await getParentLink(deps.db, user.id));
}

/**
 * `POST /api/user/parent { phone }`: sends `phone` its code and notes it as pending (see the module doc). Errors:
 * `sms_unavailable` (reports off, or the provider failed: nothing noted), `throttled` (a code went to this number
 * for this learner less than a minute ago), `validation_error` (the provider refuses the number).
 */
export async function requestParentCode(deps: Deps, user: User, phone: string): Promise<ParentView> {
  requireReportsOn(deps);
  const link = await getParentLink(deps.db, user.id);
  if (link?.status === 'active' && link.phone === phone && !link.pendingPhone) return parentView(link);
  await sendConfirmationCode(deps, phone, scopeOf(user.id));
  await transact(deps.db, [pendingItem(deps.db, user.id, phone, deps.clock.now())]);
  return parentView(await getParentLink(deps.db, user.id));
}

/** The week `phone`'s reports are due from when confirmed at `nowMs`: this week, or the next if it had this one's. */
function firstDueWeek(link: ParentLink | undefined, phone: string, nowMs: number): string {
  const thisWeek = weekKey(nowMs);
  const last = link?.lastReport;
  return last && last.phone === phone && last.status !== 'failed' && last.week >= thisWeek ? addDays(last.week, 7) : thisWeek;
}

/**
 * `POST /api/user/parent/verify { code }`: confirms the pending number (see the module doc). Errors:
 * `parent_not_pending` (409), `otp_invalid` (401: wrong, expired, spent or already used).
 */
export async function confirmParent(deps: Deps, user: User, code: string): Promise<ParentView> {
  const link = await getParentLink(deps.db, user.id);
  const phone = link?.pendingPhone;
  if (!phone) throw parentErrors.notPending();
  const consume = await checkConfirmationCode(deps, phone, scopeOf(user.id), code);
  const now = deps.clock.now();
  try {
    await transact(deps.db, [consume, activateItem(deps.db, user.id, phone, firstDueWeek(link, phone, now), now)]);
  } catch (error) {
    const [codeGone, pendingChanged] = cancellationReasons(error).map((r) => r === 'ConditionalCheckFailed');
    if (codeGone) throw authErrors.otpInvalid('The code was already used');
    if (pendingChanged) throw parentErrors.notPending();
    throw error;
  }
  return parentView(await getParentLink(deps.db, user.id));
}

/** `DELETE /api/user/parent`: no more reports, no pending number (no-op without one). */
export async function removeParent(deps: Deps, user: User): Promise<void> {
  try {
    await transact(deps.db, [removeItem(deps.db, user.id)]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error; // there was none
  }
}
