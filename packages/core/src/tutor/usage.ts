/**
 * Token usage of the tutor (issue 5 §6; spec "Assistant data": token usage, recorded for streamed answers
 * too). Per answer, on the answer message (`conversation.ts`); per learner and day on the quota item
 * (`AIQUOTA#<day>`: promptTokens, completionTokens); and for the whole service per Tehran day on
 * `AIUSAGE#<day>` / `AIUSAGE`: promptTokens, completionTokens, answers, cachedAnswers, refusedAnswers (kept
 * 400 days). Streamed calls report usage in their last chunk (`stream_options.include_usage`); a call cut
 * before that chunk has no usage to record.
 */
import { tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import { keys } from '../db/keys';
import { type TxItem, update } from '../db/transact';
import type { Deps } from '../deps';
import type { TokenUsage } from '../providers/ports';

const USAGE_KEEP_DAYS = 400;

export type UsageOutcome = 'answers' | 'cachedAnswers' | 'refusedAnswers';

/** Transaction items adding one answer's usage to the day's aggregate and to the learner's quota item. */
export function usageItems(deps: Deps, userId: number, nowMs: number, outcome: UsageOutcome, usage?: TokenUsage): TxItem[] {
  const day = tehranDay(nowMs);
  const tokens = { ':p': usage?.promptTokens ?? 0, ':c': usage?.completionTokens ?? 0 };
  const items: TxItem[] = [
    update(deps.db, keys.aiUsage(day), `SET #day = :day, expiresAt = :exp ADD promptTokens :p, completionTokens :c, ${outcome} :one`, {
      names: { '#day': 'day' },
      values: { ':day': day, ':exp': epochSeconds(tehranDayStart(nowMs)) + USAGE_KEEP_DAYS * 86_400, ':one': 1, ...tokens },
    }),
  ];
  if (usage) {
    items.push(update(deps.db, keys.aiQuota(userId, day), 'ADD promptTokens :p, completionTokens :c', { values: tokens }));
  }
  return items;
}
