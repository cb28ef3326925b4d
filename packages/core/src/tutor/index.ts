/**
 * The tutor ('ask Pi'): a streamed, math-only assistant grounded in the learner's textbook (issue 5; spec
 * "What the service does" 5, "Assistant data", `POST /api/ai/ask`, internal RAG ingest routes, Errors, Limits).
 */
import { MESSAGE_PREFIX } from './message.entity';
import { QUOTA_PREFIX } from './quota.entity';

export { OPENING_MAX_CHARS, OPENING_MIN_CHARS } from './answerStream';
export { type AskInput, askTutor, USER_QUESTION_MAX } from './ask';
export { backfillFeedbackIndex } from './backfill';
export { listHistory, rateMessage, type TutorMessage } from './conversation';
export {
  ABUSE_HELP_TEXT,
  ATTEMPT_TEXT,
  CONTENT_FILTER_TEXT,
  HELP_LINE_TEXT,
  LENGTH_LIMIT_TEXT,
  PERSONAL_DATA_TEXT,
  PRIVACY_NOTE,
  REFUSAL_TEXT,
  TIME_LIMIT_TEXT,
} from './copy';
export { type GateVerdict, screenRequest } from './gate/screen';
export { deleteDocument, type IngestInput, ingestDocument, type RagDocument } from './ingest';
export { ANSWER_OUTCOMES, type AnswerOutcome } from './modelAnswer';
export { getQuota, type QuotaItem } from './quota.entity';
export { seedTextbook } from './seed';
export { textbookExcerpts } from './seed/textbook';
export type { AskOutcome, TutorReply } from './session';
export { Slots } from './slots';
export { learnerTutorUsage, listTutorFeedback, listTutorUsage } from './staffViews';
export { asciiDigits, fold } from './text';
export { type DailyUsageItem, getDailyUsage } from './usage.entity';

/**
 * Sort-key prefixes of the tutor's items in the learner's partition `USER#<id>`, personal data deleted with the
 * account: conversation messages (`AIMSG#`) and daily quota items (`AIQUOTA#`). (The last wrong answers, `WRONG#`,
 * are progress's.)
 */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [MESSAGE_PREFIX, QUOTA_PREFIX];
