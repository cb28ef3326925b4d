/**
 * What each deployed function may do with the table and the stage secret: least privilege, declared per endpoint
 * group (infra/routes.ts) and per job. `stacks/access.ts` turns an entry into the function's IAM statements:
 * `dynamodb:<action>` on the table's ARN for `table`, `dynamodb:Query` on `table/index/<name>` for each of `indexes`,
 * `secretsmanager:GetSecretValue` on the stage secret's ARN when `secret`. Nothing else, and no `*` resource but the
 * one exception of {@link tracingActions} (X-Ray), which every function has.
 *
 * Proof of completeness: the black-box suite records every DynamoDB request each group's handler sends through the
 * local runtime (tests/support/tableAccess.ts) and fails when one is not declared here; the stack tests fail when a
 * deployed policy allows anything beyond its declaration. A route or job that needs a new action: add it here, in
 * the same commit. `TABLE_ACCESS_OUT=<dir> npx vitest run --project api` then `npx tsx scripts/table-access-report.ts <dir>`
 * lists, per function, what the suite saw next to what is declared.
 *
 * IAM knows no TransactWriteItems action: each part of a transaction is authorized as its own action (Put →
 * PutItem, Update → UpdateItem, Delete → DeleteItem, ConditionCheck → ConditionCheckItem), and TransactGetItems as
 * GetItem. Beyond what the suite observes, an entry includes what a worker-level cache hides locally, where every
 * group shares one process: the curriculum cache (`Query` of the content partitions, curriculum/store.ts) is loaded
 * by each Lambda that reads content (curriculum, learning, user, health, tutor, rag).
 */
import type { EndpointGroup } from './routes';
import type { GlobalIndexName } from './table';

/** Scheduled and deploy-time functions (not endpoint groups). */
export const jobNames = [
  'migrate',
  'payment-recheck',
  'marketplace-renewal',
  'board-snapshots',
  'streak-freezes',
  'parent-reports',
] as const;
export type JobName = (typeof jobNames)[number];

/** An endpoint group's Lambda or a job's. */
export type FunctionName = EndpointGroup | JobName;

/** The DynamoDB IAM actions this service uses (no `dynamodb:*`, no Scan, no table administration). */
export const tableActions = [
  'GetItem',
  'BatchGetItem',
  'Query',
  'PutItem',
  'UpdateItem',
  'DeleteItem',
  'BatchWriteItem',
  'ConditionCheckItem',
  'DescribeContinuousBackups',
] as const;
export type TableAction = (typeof tableActions)[number];

export interface FunctionAccess {
  /** Actions on the table itself. */
  table: readonly TableAction[];
  /** GSIs the function queries (dynamodb:Query on `table/index/<name>`). */
  indexes: readonly GlobalIndexName[];
  /** Whether it reads the stage secret (every function that builds its dependencies from settings does). */
  secret: boolean;
}

/**
 * The one IAM exception (issue 30 §4): every function traces to X-Ray (Lambda active tracing, stacks/service.ts), for
 * which its role needs these two actions on `*`. X-Ray has no resource-level permissions: its write actions accept no
 * ARN, only `*` (AWS's list of X-Ray actions and resources; CDK grants exactly these when `tracing` is active). They
 * only send trace segments and telemetry; they read nothing and reach no data. The stack tests allow exactly these two
 * on `*` and nothing else there.
 */
export const tracingActions = ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'] as const;

/**
 * Whether function `fn` reads the origin secret (DESIGN §12: `secretsmanager:GetSecretValue` on it, its ARN in
 * ORIGIN_SECRET_ID): every endpoint group, since each refuses a request without the origin header; no job (they
 * serve no request).
 */
export const readsOriginSecret = (fn: FunctionName): boolean => !(jobNames as readonly string[]).includes(fn);

/** Reads only. */
const READ = ['GetItem', 'Query'] as const satisfies readonly TableAction[];
/** Reads and item writes (transactions are made of Put/Update/Delete parts). */
const READ_WRITE = ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'] as const satisfies readonly TableAction[];

export const functionAccess: Record<FunctionName, FunctionAccess> = {
  // The public check is one Query; the internal details add the PITR status (DescribeContinuousBackups) and the
  // curriculum cache.
  health: { table: ['GetItem', 'Query', 'DescribeContinuousBackups'], indexes: [], secret: true },
  // Throttle counters, one-time codes (read with the phone item in one BatchGet when sent; deleted on a refused send
  // or in the login's transaction), users (create transaction), sessions: by key only. A refresh checks in its
  // transaction that the sign-in is still the user's live one (ConditionCheck).
  auth: { table: ['GetItem', 'BatchGetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'], indexes: [], secret: true },
  // Public question bank: the curriculum cache and the throttle counter.
  curriculum: { table: ['Query', 'UpdateItem'], indexes: [], secret: true },
  // Answers, completions (their state in one BatchGet), XP, board entries and histogram, streaks, notifications; the
  // lock rule checked inside the answer's transaction (ConditionCheck). A grant removes a learner's board entry of the
  // layout before migration 0006 (Delete), when the migration had not moved them yet. The mistakes review: a mastered
  // question leaves it, and a learner without freezes leaves the freeze job's index (Delete parts of transactions).
  learning: {
    table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
    indexes: [],
    secret: true,
  },
  // Profile, hearts, summary, weekly report, and account deletion (the personal prefixes, BatchWriteItem deletes).
  // The parent's number: its code (Put, consumed by a Delete in the confirming transaction), the link item.
  user: { table: [...READ, 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem'], indexes: [], secret: true },
  // Unknown paths and methods: answers 404/405 without reading anything.
  fallback: { table: [], indexes: [], secret: true },
  // The board's snapshot (GetItem), the caller's ties (COUNT Queries of the tie index, gsi1). A board without a
  // snapshot (its first minute) or whose job has stopped is snapshotted by its reader: the histogram shards (Query),
  // the tie index (gsi1) and the snapshot (PutItem), as `board-snapshots` does.
  leaderboard: { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1'], secret: true },
  // The learner's list merges the staff broadcasts (BatchGet of the read copies).
  notifications: { table: [...READ, 'BatchGetItem', 'PutItem', 'UpdateItem'], indexes: [], secret: true },
  support: { table: [...READ, 'PutItem', 'UpdateItem'], indexes: [], secret: true },
  // Plans, offers (gsi1), purchase, the status re-check (the user's orders, gsi1), discounts, referral, invoices.
  // The status read also syncs marketplace renewals (the due-hour index).
  billing: { table: [...READ, 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // Pay link and gateway callback: the order, its authority, the grant transaction, audit rows.
  payment: { table: ['GetItem', 'PutItem', 'UpdateItem'], indexes: [], secret: true },
  // Staff sessions, the order list (gsi2), cancel and refund transactions; the learners of a page of the staff's
  // directory (BatchGet).
  admin: { table: [...READ_WRITE, 'BatchGetItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // Quota, conversation (gsi1), answer cache, textbook chunks, the answer's transaction.
  // The quota check (a paywall) also syncs marketplace renewals (the due-hour index).
  tutor: { table: [...READ, 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // History and feedback.
  ai: { table: [...READ, 'UpdateItem'], indexes: [], secret: true },
  // Ingest (chunks written in batches) and delete of textbook documents.
  rag: { table: [...READ_WRITE, 'BatchWriteItem'], indexes: [], secret: true },
  // Deploy-time data migrations: the applied list, seeds (batches); data transforms update and delete items. No
  // secret: it builds no dependencies.
  // 0003 backfills the admin indexes and reads them back (gsi1, gsi2).
  migrate: { table: [...READ_WRITE, 'BatchWriteItem'], indexes: ['gsi1', 'gsi2'], secret: false },
  // The payment re-check job: recent orders (gsi2), each buyer's orders (gsi1), then as the payment group: verify and
  // settle (order, user, grant transaction, audit rows). The gateway merchant id is in the secret.
  'payment-recheck': { table: ['GetItem', 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // The hourly marketplace renewal: due subscriptions through the due-hour index (gsi1), the marketplace
  // credential, then each new period's paid order (grant transaction, audit rows), or a store-side end (the
  // learner's other marketplace subscriptions, gsi2). SECRET_KEY opens the sealed purchase tokens. Never Scan,
  // Delete or batch writes.
  'marketplace-renewal': {
    table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'ConditionCheckItem'],
    indexes: ['gsi1', 'gsi2'],
    secret: true,
  },
  // Every minute, the leaderboards' snapshots: the histogram shards (Query), the tie index (gsi1), the snapshot
  // (PutItem). No secret: it builds no dependencies.
  'board-snapshots': { table: ['Query', 'PutItem'], indexes: ['gsi1'], secret: false },
  // The nightly streak freeze job (DESIGN §13): the watch index (gsi1), each learner, the freeze's transaction (user
  // item, notifications (ids are the time: no counter), the watch item moved or removed).
  'streak-freezes': { table: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: ['gsi1'], secret: true },
  // The weekly parent reports (DESIGN §13): the due index (gsi1), the learner and link (BatchGet), the week's
  // activity (Query), the claim (a check of the user and an update) and the outcome. SECRET_KEY signs the stop links;
  // the sms key is in the secret.
  'parent-reports': { table: ['BatchGetItem', 'Query', 'UpdateItem', 'ConditionCheckItem', 'GetItem'], indexes: ['gsi1'], secret: true },
  // Marketplace purchase start/verify, the OAuth exchange, and the staff connection routes.
  // The OAuth exchange closes its window (delete); verify settles through the grant transaction.
  marketplace: { table: ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'], indexes: [], secret: true },
  // The API description behind the admin session: the staff session and staff member by key, the throttle counter.
  docs: { table: ['GetItem', 'UpdateItem'], indexes: [], secret: true },
  // Plans, discount codes, offers (their index), staff.
  admincatalog: { table: READ_WRITE, indexes: ['gsi2'], secret: true },
  // Users (search index), orders, payment events, refunds, the dashboard counters (BatchGet of the day's shards).
  adminsales: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // Tickets, notifications, tutor feedback and usage, learner sessions, OTP records.
  adminsupport: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // The staff history (its partitions, gsi1 by staff member or model, gsi2 all), the chart's day counters (BatchGet of
  // the days' shards), bulk actions (each row one transaction: the record's update and its history entry), a learner's
  // tutor usage, one's own password (the staff item, its new session).
  admintools: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
  // The CSV exports: every admin list's reads (their indexes; buyers' and ticket owners' public ids by BatchGet) and the
  // export's own history entry (two Puts in one transaction), the staff session and the throttle counter.
  adminexport: { table: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'], indexes: ['gsi1', 'gsi2'], secret: true },
};
