/**
 * Token usage of the tutor (issue 5 §6; spec "Assistant data": token usage, recorded for streamed answers
 * too). Per answer, on the answer message (`conversation.ts`); per learner and day on the quota item
 * (`quota.entity.ts`: promptTokens, completionTokens); and for the whole service per Tehran day
 * (`usage.entity.ts`: tokens and answers by outcome, kept {@link USAGE_KEEP_DAYS} days). Streamed calls report
 * usage in their last chunk (`stream_options.include_usage`); a call cut before that chunk has no usage to record.
 */
import { tehranDay, tehranDayStart } from '../calendar/tehran';
import { epochSeconds } from '../clock';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import type { TokenUsage } from '../providers/ports';
import { addQuotaTokens } from './quota.entity';
import { addDailyUsage, USAGE_KEEP_DAYS, type UsageOutcome } from './usage.entity';

/**
 * Transaction items adding one answer (`outcome`, asked at `nowMs` epoch ms) and its usage to the service's
 * Tehran day, and the usage to the learner's quota item of that day.
 */
export function usageItems(deps: Deps, userId: number, nowMs: number, outcome: UsageOutcome, usage?: TokenUsage): TxItem[] {
  const day = tehranDay(nowMs);
  const expiresAt = epochSeconds(tehranDayStart(nowMs)) + USAGE_KEEP_DAYS * 86_400;
  const items = [addDailyUsage(deps.db, day, outcome, usage, expiresAt)];
  if (usage) items.push(addQuotaTokens(deps.db, userId, day, usage));
  return items;
}
