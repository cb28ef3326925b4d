/**
 * The parent's report as the staff see it on a learner's page (DESIGN §9, §13): the numbers masked (staff need to
 * tell which number without reading it: `0912***4567`), the status and how the last report went.
 */
import type { Deps } from '../deps';
import { getParentLink } from './parentLink.entity';
import { reportDueAt } from './schedule';

export interface StaffParentView {
  status: 'none' | 'active' | 'stopped';
  phone: string | null;
  pendingPhone: string | null;
  verifiedAt: string | null;
  stoppedAt: string | null;
  stoppedBy: 'parent' | null;
  reportsSent: number;
  lastReport: { week: string; at: string; status: 'sent' | 'uncertain' | 'failed'; providerStatus: number | null } | null;
  nextReportAt: string | null;
}

/** `phone` with all but its first four and last three characters hidden (`0912***4567` style). */
export function maskPhone(phone: string): string {
  if (phone.length <= 7) return '*'.repeat(phone.length);
  return `${phone.slice(0, 4)}${'*'.repeat(phone.length - 7)}${phone.slice(-3)}`;
}

const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** The parent's report of learner `userId` for the staff. */
export async function parentForStaff(deps: Deps, userId: number): Promise<StaffParentView> {
  const link = await getParentLink(deps.db, userId);
  const last = link?.lastReport;
  return {
    status: link?.status ?? 'none',
    phone: link?.phone && link.status !== 'none' ? maskPhone(link.phone) : null,
    pendingPhone: link?.pendingPhone ? maskPhone(link.pendingPhone) : null,
    verifiedAt: iso(link?.verifiedAt),
    stoppedAt: iso(link?.stoppedAt),
    stoppedBy: link?.stoppedBy ?? null,
    reportsSent: link?.reportsSent ?? 0,
    lastReport: last
      ? { week: last.week, at: iso(last.at) as string, status: last.status, providerStatus: last.providerStatus ?? null }
      : null,
    nextReportAt: link?.status === 'active' && link.dueWeek ? iso(reportDueAt(link.dueWeek)) : null,
  };
}
