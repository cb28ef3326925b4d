/**
 * What each admin list's CSV export holds (DESIGN §9; docs/admin-api.md "CSV export"): the permission and filters of
 * the list, the columns it shows, and how its rows are read: page by page through the very function that answers the
 * list, so an export has exactly the rows the list has under the same filters, every one of them.
 */
import type { Deps } from '@mathisland/core';
import { listStaff, type Permission } from '@mathisland/core/admin';
import { listLearnerSessions, listOtpRecords, listUsers } from '@mathisland/core/auth';
import { type HistoryModel, listHistory } from '@mathisland/core/history';
import { listSentNotifications } from '@mathisland/core/notifications';
import {
  listDiscountCodes,
  listOffersForStaff,
  listOrdersForStaff,
  listPaymentEvents,
  listPlansForStaff,
} from '@mathisland/core/subscriptions';
import { listTicketsForStaff } from '@mathisland/core/support';
import { listTutorFeedback, listTutorUsage } from '@mathisland/core/tutor';
import type * as z from 'zod';
import {
  codesFilters,
  exportQuery,
  feedbackFilters,
  offersFilters,
  otpFilters,
  plansFilters,
  SEARCHED,
  sentFilters,
  sessionsFilters,
  staffFilters,
  ticketsFilters,
  usageFilters,
  usersFilters,
  wholeRows,
} from './adminLists';
import { type Column, day, field, type Row, time } from './csv';
import { HistoryExportQuery } from './historyLists';
import { isoTime } from './http';
import { eventsFilters, ordersFilters } from './orderLists';

/** Rows an export reads at once: the largest page of a list. */
export const EXPORT_PAGE_SIZE = 100;

/** One page of rows and the cursor of the next (none on the last). */
export interface RowPage {
  items: Row[];
  nextCursor?: string;
}

/** An exportable list. */
export interface ExportSpec {
  /** The list's path under `/api/admin/` (`tutor/feedback`). */
  resource: string;
  /** The list's view permission; none: the route checks it itself (the history). */
  permission?: Permission;
  /** The model its history entry names. */
  model: HistoryModel;
  /** The filters (the list's, without `cursor` and `limit`). */
  query: z.ZodType<object>;
  columns: Column[];
  /** One page of `EXPORT_PAGE_SIZE` rows from `cursor` (the list's own reader). */
  page: (deps: Deps, filters: any, cursor?: string) => Promise<RowPage>;
}

const strict = (filters: () => z.ZodRawShape) => ({ query: exportQuery(filters) });

const paged = (list: (deps: Deps, q: any) => Promise<RowPage>) => (deps: Deps, filters: object, cursor?: string) =>
  list(deps, { ...filters, limit: EXPORT_PAGE_SIZE, ...(cursor ? { cursor } : {}) });
/** A list read whole (plans, codes, offers, staff): one page, searched and sorted as the list is. */
const whole = (list: (deps: Deps, q: any) => Promise<Row[]>, searchIn: readonly string[]) => async (deps: Deps, filters: object) => ({
  items: wholeRows(await list(deps, filters), filters, searchIn),
});
const fields = (...paths: string[]) => paths.map((p) => field(p));

export const EXPORTS: readonly ExportSpec[] = [
  {
    resource: 'users',
    permission: 'view_user',
    model: 'user',
    ...strict(usersFilters),
    columns: [
      ...fields('id', 'publicId', 'phone', 'displayName', 'gradeId', 'xp', 'stars', 'hearts', 'streakCurrent'),
      field('subscription.planTitle', 'subscriptionPlan'),
      ...time('subscription.expiresAt', 'subscriptionExpiresAt'),
      field('subscription.active', 'subscriptionActive'),
      ...time('createdAt'),
      ...time('lastLoginAt'),
    ],
    page: paged(listUsers as never),
  },
  {
    resource: 'orders',
    permission: 'view_order',
    model: 'order',
    ...strict(ordersFilters),
    columns: [
      ...fields(
        'id',
        'userId',
        'userPublicId',
        'planId',
        'planTitle',
        'provider',
        'status',
        'listPrice',
        'discountCode',
        'discount',
        'amount',
      ),
      ...fields('invoiceNumber', 'paidVia', 'refId'),
      ...time('createdAt'),
      ...time('paidAt'),
      ...time('cancelledAt'),
      ...time('refundedAt'),
    ],
    page: paged(listOrdersForStaff as never),
  },
  {
    resource: 'payment-events',
    permission: 'view_paymentevent',
    model: 'paymentevent',
    ...strict(eventsFilters),
    columns: [
      ...fields('id', 'orderId', 'userId', 'kind'),
      ...time('at'),
      // The list's columns: the `ignored` marker of duplicate or forged attempts (spec Events), and what the
      // marketplace answered (its HTTP status, the period end it reported, whether it renews).
      ...fields('via', 'result', 'ignored', 'reason', 'amount', 'gatewayCode', 'refId', 'marketplaceStatus'),
      ...time('validUntil'),
      ...fields('autoRenewing', 'actor'),
    ],
    page: paged(listPaymentEvents as never),
  },
  {
    resource: 'plans',
    permission: 'view_plan',
    model: 'plan',
    ...strict(plansFilters),
    columns: fields(
      'id',
      'title',
      'price',
      'durationDays',
      'aiDailyQuota',
      'features',
      'badge',
      'popular',
      'onSale',
      'marketplaceSku',
      'marketplaceProductType',
      'hasOrders',
    ),
    page: whole(listPlansForStaff as never, SEARCHED.plans),
  },
  {
    resource: 'discount-codes',
    permission: 'view_discountcode',
    model: 'discountcode',
    ...strict(codesFilters),
    columns: [
      ...fields('code', 'title', 'percent'),
      ...time('validFrom'),
      ...time('validUntil'),
      ...fields('maxUses', 'perUserLimit', 'planIds', 'advertised', 'active', 'uses'),
    ],
    page: whole(listDiscountCodes as never, SEARCHED.codes),
  },
  {
    resource: 'offers',
    permission: 'view_offer',
    model: 'offer',
    ...strict(offersFilters),
    columns: [...fields('code', 'title', 'percent'), ...time('validUntil'), ...fields('planIds', 'advertised', 'usableNow')],
    page: whole(listOffersForStaff as never, SEARCHED.offers),
  },
  {
    resource: 'tickets',
    permission: 'view_ticket',
    model: 'ticket',
    ...strict(ticketsFilters),
    columns: [...fields('id', 'userId', 'userPublicId', 'subject', 'status', 'messageCount'), ...time('createdAt'), ...time('updatedAt')],
    page: paged(listTicketsForStaff as never),
  },
  {
    resource: 'notifications',
    permission: 'view_notification',
    model: 'notification',
    ...strict(sentFilters),
    columns: [...fields('id', 'audience', 'userId', 'title', 'body'), ...time('sentAt'), field('staff')],
    page: paged(listSentNotifications as never),
  },
  {
    resource: 'tutor/feedback',
    permission: 'view_tutorfeedback',
    model: 'tutorfeedback',
    ...strict(feedbackFilters),
    columns: [...fields('id', 'userId', 'messageId', 'rating', 'comment', 'question', 'answer'), ...time('at')],
    page: paged(listTutorFeedback as never),
  },
  {
    resource: 'tutor/usage',
    permission: 'view_tutorusage',
    model: 'tutorusage',
    ...strict(usageFilters),
    columns: [...day('day'), ...fields('answers', 'cachedAnswers', 'refusals', 'incomplete', 'promptTokens', 'completionTokens')],
    page: paged(listTutorUsage as never),
  },
  {
    resource: 'staff',
    permission: 'view_staff',
    model: 'staff',
    ...strict(staffFilters),
    columns: [...fields('username', 'isSuperuser', 'permissions', 'active'), ...time('createdAt'), ...time('updatedAt')],
    page: whole(
      async (deps: Deps) =>
        (await listStaff(deps.db)).map((s) => ({ ...s, createdAt: isoTime(s.createdAt), updatedAt: isoTime(s.updatedAt) })),
      SEARCHED.staff,
    ),
  },
  {
    resource: 'sessions',
    permission: 'view_session',
    model: 'session',
    ...strict(sessionsFilters),
    columns: [...fields('id', 'userId', 'userPublicId'), ...time('createdAt'), ...time('expiresAt')],
    page: paged(listLearnerSessions as never),
  },
  {
    resource: 'otp-records',
    permission: 'view_otprecord',
    model: 'otprecord',
    ...strict(otpFilters),
    columns: [...fields('phone', 'attempts', 'codeSent'), ...time('sentAt'), ...time('expiresAt'), field('state')],
    page: paged(listOtpRecords as never),
  },
  {
    resource: 'history',
    model: 'logentry',
    query: HistoryExportQuery,
    columns: [...fields('id'), ...time('at'), ...fields('staff', 'action', 'model', 'objectId', 'objectRepr', 'changes')],
    page: paged(listHistory as never),
  },
];
