/**
 * The answer cache (issue 5 §6; spec "Assistant data": "a cache of answers keyed by tone"). A hit is served
 * without a model call (it still counts as a question for the quota and the weekly report).
 *
 * Key: SHA-256 of everything that decides the answer: the chat model, the prompt version, the tone, the
 * context (grade book / lesson / practice question), the learner's last wrong answer (practice questions),
 * the conversation messages sent with it, the reply's prelude and hint step (issue 16), and the question folded (`text.ts`: letter forms, digits, ZWNJ,
 * case, spaces) without trailing punctuation. So a hit only happens when the model would have been asked the
 * very same thing; in practice: the first question of a conversation, asked the same way by many learners.
 * Stored as `cache.entity.ts` items with a TTL of {@link ANSWER_CACHE_TTL_SECONDS}. Refused (late marker), failed
 * and cut answers are never cached.
 */
import { createHash } from 'node:crypto';
import { epochSeconds } from '../clock';
import type { TxItem } from '../db/transact';
import type { Deps } from '../deps';
import type { ChatMessage } from '../providers/ports';
import { cachedAnswerPut, getCachedAnswer } from './cache.entity';
import { PROMPT_VERSION, type Tone } from './prompt';
import { fold } from './text';

/** How long a cached answer is served, seconds (7 days: textbook and prompt changes show within a week). */
export const ANSWER_CACHE_TTL_SECONDS = 7 * 86_400;

export interface CacheKeyParts {
  model: string;
  tone: Tone;
  context: string;
  wrongAnswer?: string;
  history: ChatMessage[];
  question: string;
  /** What else shapes the reply: the fixed prelude and the hint step of a practice question (`session.ts`). */
  reply?: string;
}

/** The question as the cache compares it. */
export const normalizeQuestion = (question: string): string => fold(question).replace(/[\s.!?؟،,]+$/u, '');

/** The cache key (hex SHA-256) of a question with its grounding. */
export function answerCacheKey(p: CacheKeyParts): string {
  const material = JSON.stringify([
    PROMPT_VERSION,
    p.model,
    p.tone,
    p.context,
    p.wrongAnswer ?? null,
    p.history.map((m) => [m.role, m.content]),
    normalizeQuestion(p.question),
    p.reply ?? null,
  ]);
  return createHash('sha256').update(material).digest('hex');
}

/** The cached answer of `key`, unless absent or expired. */
export async function cachedAnswer(deps: Deps, key: string): Promise<string | undefined> {
  const item = await getCachedAnswer(deps.db, key);
  if (!item || item.expiresAt <= epochSeconds(deps.clock.now())) return undefined;
  return item.answer;
}

/** A transaction item that caches `answer` (by `model`, in `tone`) under `key` at `nowMs` (epoch ms). */
export function cacheAnswerItem(deps: Deps, key: string, answer: string, tone: Tone, model: string, nowMs: number): TxItem {
  return cachedAnswerPut(deps.db, key, {
    answer,
    tone,
    model,
    createdAt: new Date(nowMs).toISOString(),
    expiresAt: epochSeconds(nowMs) + ANSWER_CACHE_TTL_SECONDS,
  });
}
