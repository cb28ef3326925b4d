/**
 * The tutor ('ask Pi'): a streamed, math-only assistant grounded in the learner's textbook (issue 5; spec
 * "What the service does" 5, "Assistant data", `POST /api/ai/ask`, internal RAG ingest routes, Errors, Limits).
 */

export type { ChatMessage, ModelChunk, ModelClient, TokenUsage } from '../providers/ports';
export { type AskInput, type AskOutcome, askTutor, type TutorReply, USER_QUESTION_MAX } from './ask';
export { isMessageId, listHistory, rateMessage, type TutorMessage } from './conversation';
export { tutorErrors } from './errors';
export { classifyQuestion, type TopicVerdict } from './filter';
export { toPlainText } from './plainText';
export { HISTORY_MESSAGES, REFUSAL_MARKER } from './prompt';
export { dailyLimit } from './quota';
export { deleteDocument, type IngestInput, ingestDocument, type RagDocument, retrieve } from './rag';
export { seedTextbook } from './seed';
export { SLOT_HOLD_MS, type SlotStats, Slots } from './slots';
