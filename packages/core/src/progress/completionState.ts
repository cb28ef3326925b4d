/**
 * What a completion reads before it decides (spec "Node (island)" state table; issue 15): the node's own
 * progress, the lock rule (the progress of the node before), the learner's latest answers to the node's questions
 * and the completions of its lessons, all in one BatchGetItem of keys the curriculum names, strongly consistent.
 * With the session check that loaded the user, a completion reads in two requests whatever the node holds.
 */
import { getRawItems, keyId, parseItem } from '../db/items';
import type { Key } from '../db/keys';
import type { Deps } from '../deps';
import { AnswerItem, answerKey, type LatestAnswer } from './answer.entity';
import { type LessonCompletion, LessonCompletionItem, lessonCompletionKey } from './lessonCompletion.entity';
import type { CurriculumNode, Question } from './lock';
import { type NodeProgress, NodeProgressItem, nodeProgressKey } from './nodeProgress.entity';

export interface CompletionState {
  /** The node's progress row: there once the node was completed. */
  own: NodeProgress | undefined;
  /** The lock rule holds: the node is the first of its grade, or the node before it is completed. */
  unlocked: boolean;
  /** The learner's latest answers to the node's questions, by question id. */
  answers: Map<number, LatestAnswer>;
  /** The learner's completions among the lessons asked for, by lesson id. */
  lessons: Map<number, LessonCompletion>;
}

/** Reads the {@link CompletionState} of `node` (its `questions`, its lessons `lessonIds`) for `userId`, in one request. */
export async function readCompletionState(
  deps: Deps,
  userId: number,
  node: CurriculumNode,
  questions: Question[],
  lessonIds: number[],
): Promise<CompletionState> {
  const ownKey = nodeProgressKey(userId, node.id);
  const previousKey = node.previousNodeId === null ? undefined : nodeProgressKey(userId, node.previousNodeId);
  const answerKeys = questions.map((q) => answerKey(userId, node.id, q.id));
  const lessonKeys = lessonIds.map((id) => lessonCompletionKey(userId, id));
  const items = await getRawItems(deps.db, [ownKey, ...(previousKey ? [previousKey] : []), ...answerKeys, ...lessonKeys]);
  const read = (key: Key) => items.get(keyId(key));
  const parsed = <T>(keys: Key[], parse: (item: Record<string, unknown>) => T): T[] =>
    keys.flatMap((key) => {
      const item = read(key);
      return item ? [parse(item)] : [];
    });
  const previous = previousKey && read(previousKey);
  const own = read(ownKey);
  return {
    own: own ? parseItem(NodeProgressItem, own) : undefined,
    unlocked: previous === undefined ? previousKey === undefined : parseItem(NodeProgressItem, previous).completed,
    answers: new Map(parsed(answerKeys, (i) => parseItem(AnswerItem, i)).map((a) => [a.questionId, a])),
    lessons: new Map(parsed(lessonKeys, (i) => parseItem(LessonCompletionItem, i)).map((l) => [l.lessonId, l])),
  };
}
