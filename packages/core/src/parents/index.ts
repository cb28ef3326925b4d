/**
 * The parent's weekly report by SMS (DESIGN §13): the learner confirms a parent's number with a code (link.ts), a
 * weekly job sends each confirmed parent one SMS (weekly.ts, schedule.ts) with a signed stop link that needs no
 * sign-in (stop.ts); the staff see it masked (staff.ts). Stored item: parentLink.entity.ts (in the learner's
 * partition, with the job's due index on gsi1).
 */
import { PARENT_LINK_SK } from './parentLink.entity';

export { parentErrors } from './errors';
export { confirmParent, type ParentView, parentOf, removeParent, requestParentCode } from './link';
export { deleteLinkItem } from './parentLink.entity';
export { REPORT_HOUR, reportDueAt, reportWeekAt, SEND_WINDOW_HOURS } from './schedule';
export { maskPhone, parentForStaff, type StaffParentView } from './staff';
export { stopByLink, stopToken } from './stop';
export { CLAIM_MS, PARENT_REPORT_CONCURRENCY, type ParentReportRun, type ReportOutcome, sendWeeklyParentReports } from './weekly';

/** Sort-key prefixes of this domain's items in the learner's partition `USER#<id>`: personal data, deleted with the account. */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [PARENT_LINK_SK];
