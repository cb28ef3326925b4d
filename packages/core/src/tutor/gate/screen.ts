/**
 * The tutor's gate (issue 16 §1, §3; spec Errors): what happens to a learner's request before any slot, quota or
 * model call. In order:
 * 1. safety (`safety.ts`): self-harm → the help-line message; abuse → the abuse help message;
 * 2. personal data is redacted (`safety.ts`), so the rest of the service — the topic decision, the model, the
 *    conversation store, the answer cache — only ever sees the redacted request;
 * 3. topic (`topic.ts`, stage 1): off-topic → the fixed refusal; a request that held personal data and shows no math
 *    of its own (an expression, a word problem, a math term, a measurement) → the fixed personal-data message
 *    instead, whatever else it is;
 * 4. otherwise the (redacted) request is asked; the model's refusal marker is stage 2 (`answerStream.ts`).
 * Each verdict carries a category (and a reason) for the log; the text is never logged.
 */
import { isPersian } from '../text';
import { type PersonalKind, screenSafety } from './safety';
import { classifyTopic, type TopicContext, type TopicReason } from './topic';

export type { PersonalKind } from './safety';
export type { TopicContext, TopicReason } from './topic';

export type GateVerdict =
  | { kind: 'help_line'; category: 'self_harm' }
  | { kind: 'abuse_help'; category: 'abuse' }
  | { kind: 'personal_data'; category: 'personal_data'; personal: PersonalKind[] }
  | { kind: 'off_topic'; category: 'off_topic'; reason: TopicReason }
  | { kind: 'ask'; question: string; personal: PersonalKind[]; reason: TopicReason };

/** Topic reasons that are evidence of math (not only the absence of an off-topic sign). */
const MATH_EVIDENCE: ReadonlySet<TopicReason> = new Set(['structure', 'vocabulary', 'measurement']);

/** What replaces a piece of personal data in the request, in its language. */
export const REDACTED = { fa: '[اطلاعات شخصی حذف شد]', en: '[personal information removed]' } as const;

/**
 * The gate's verdict on `userQuestion` asked in `context` (book, lesson, or practice question). Pure and
 * synchronous; never throws.
 */
export function screenRequest(userQuestion: string, context: TopicContext): GateVerdict {
  const safety = screenSafety(userQuestion, isPersian(userQuestion) ? REDACTED.fa : REDACTED.en);
  if (safety.category === 'self_harm') return { kind: 'help_line', category: 'self_harm' };
  if (safety.category === 'abuse') return { kind: 'abuse_help', category: 'abuse' };
  const topic = classifyTopic(safety.redacted, context);
  // Personal data keeps its fixed message unless the request shows math of its own ("my number is …, call me").
  if (safety.personal.length && !MATH_EVIDENCE.has(topic.reason)) {
    return { kind: 'personal_data', category: 'personal_data', personal: safety.personal };
  }
  if (topic.topic === 'off_topic') return { kind: 'off_topic', category: 'off_topic', reason: topic.reason };
  return { kind: 'ask', question: safety.redacted, personal: safety.personal, reason: topic.reason };
}
