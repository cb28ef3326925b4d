/**
 * What the staff read of the tutor (DESIGN §9 tutor feedback and usage; read-only): learners' ratings of
 * answers with the question and the answer, newest rating first (gsi2 `AIFEEDBACK`, message.entity.ts), and the
 * service's usage per Tehran day (usage.entity.ts).
 */
import { addDays, tehranDay } from '../calendar';
import { getItems, type Page } from '../db/items';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { feedbackPage, type MessageItem, messageBefore } from './message.entity';
import { recentQuotas } from './quota.entity';
import { DailyUsageItem, dailyUsageKey } from './usage.entity';

/** A rating as the staff see it; `id` is `<userId>-<messageId>`. */
async function feedbackView(deps: Pick<Deps, 'db'>, m: MessageItem) {
  const question = await messageBefore(deps.db, m.userId, m.id);
  return {
    id: `${m.userId}-${m.id}`,
    userId: m.userId,
    messageId: m.id,
    rating: m.rating ?? null,
    comment: m.comment ?? null,
    question: question?.role === 'user' ? question.text : null,
    answer: m.text,
    at: m.ratedAt ?? null,
  };
}

/** `GET /api/admin/tutor/feedback`: ratings newest first, optionally only `up` or `down`. Errors: `validation_error` (cursor). */
export async function listTutorFeedback(
  deps: Pick<Deps, 'db'>,
  query: { rating?: 'up' | 'down'; limit: number; cursor?: string },
): Promise<Page<Awaited<ReturnType<typeof feedbackView>>>> {
  const page = await feedbackPage(deps.db, query);
  return { ...page, items: await Promise.all(page.items.map((m) => feedbackView(deps, m))) };
}

const DAY = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;
/** Longest span of one usage request, days. */
export const MAX_USAGE_DAYS = 400;

/**
 * `GET /api/admin/tutor/usage`: one row per Tehran day from `to` back to `from` (default: the 30 days to today),
 * newest first, days without answers as zeros; `limit` days a page, `cursor` the day a page continues before.
 * Errors: `validation_error` (a malformed day, `from` after `to`, a span over {@link MAX_USAGE_DAYS} days).
 */
export async function listTutorUsage(
  deps: Pick<Deps, 'db' | 'clock'>,
  query: { from?: string; to?: string; limit: number; cursor?: string },
) {
  for (const field of ['from', 'to', 'cursor'] as const) {
    const value = query[field];
    if (value !== undefined && (!DAY.test(value) || Number.isNaN(Date.parse(value)))) {
      throw commonErrors.validation(`${field} must be a day YYYY-MM-DD`, { [field]: ['YYYY-MM-DD'] });
    }
  }
  const to = query.to ?? tehranDay(deps.clock.now());
  const from = query.from ?? addDays(to, -29);
  if (from > to) throw commonErrors.validation('from must not be after to', { from: ['after to'] });
  if (addDays(from, MAX_USAGE_DAYS) <= to)
    throw commonErrors.validation(`at most ${MAX_USAGE_DAYS} days at once`, { from: ['span too long'] });
  const first = query.cursor === undefined ? to : addDays(query.cursor, -1);
  const days: string[] = [];
  for (let day = first; day >= from && days.length < query.limit; day = addDays(day, -1)) days.push(day);
  const found = new Map((await getItems(deps.db, days.map(dailyUsageKey), DailyUsageItem, { consistent: false })).map((u) => [u.day, u]));
  const items = days.map((day) => {
    const u = found.get(day);
    return {
      id: day,
      day,
      answers: u?.answers ?? 0,
      cachedAnswers: u?.cachedAnswers ?? 0,
      refusals: u?.refusedAnswers ?? 0,
      incomplete: u?.incompleteAnswers ?? 0,
      promptTokens: u?.promptTokens ?? 0,
      completionTokens: u?.completionTokens ?? 0,
    };
  });
  const last = days.at(-1);
  return { items, ...(last && last > from ? { nextCursor: last } : {}) };
}

/**
 * `GET /api/admin/users/{id}/tutor-usage`: the learner's tutor questions per Tehran day, newest first, as long as the
 * day's quota item is kept (3 days: quota.entity.ts): `{ day, questions, limit, promptTokens, completionTokens }`.
 * The service-wide figures per day are `GET /api/admin/tutor/usage`.
 */
export async function learnerTutorUsage(deps: Pick<Deps, 'db'>, userId: number) {
  return (await recentQuotas(deps.db, userId)).map((q) => ({
    day: q.day,
    questions: q.used,
    limit: q.limit,
    promptTokens: q.promptTokens ?? 0,
    completionTokens: q.completionTokens ?? 0,
  }));
}
