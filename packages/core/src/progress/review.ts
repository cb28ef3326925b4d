/**
 * The learner's mistakes review (`GET /api/review`; DESIGN §13): the questions they got wrong and have not mastered,
 * in Leitner boxes (leitner.ts, review.entity.ts). One Query reads the whole review with the node progress rows
 * (their item collection, `nodeCollection`; bounded by the curriculum); questions no longer in the curriculum are
 * left out.
 */
import type { User } from '../auth';
import { tehranDay } from '../calendar/tehran';
import type { Deps } from '../deps';
import type { Curriculum, Question } from './lock';
import { nodeCollection } from './nodeProgress.entity';
import type { ReviewItem } from './review.entity';

/** Questions a review list shows at most. */
export const REVIEW_LIST_SIZE = 20;

export interface ReviewEntry {
  questionId: number;
  nodeId: number;
  /** Leitner box, 1-5. */
  box: number;
  /** Tehran day it is due (YYYY-MM-DD); due when today or earlier. */
  dueOn: string;
  due: boolean;
  /** The question as the content holds it (with its answer key: the edge shows the bank's view only). */
  question: Question;
}

export interface ReviewQueue {
  /** Questions due today or earlier. */
  dueCount: number;
  /** At most {@link REVIEW_LIST_SIZE}: the due ones first (oldest due day first), then those due later (practice ahead). */
  items: ReviewEntry[];
}

/** The review entries of `items` whose question the curriculum still has, due first, as of Tehran day `today`. */
function entries(items: ReviewItem[], content: Curriculum, today: string): ReviewEntry[] {
  return items
    .flatMap((item) => {
      const question = content.question(item.questionId);
      return question
        ? [{ questionId: item.questionId, nodeId: item.nodeId, box: item.box, dueOn: item.dueOn, due: item.dueOn <= today, question }]
        : [];
    })
    .sort((a, b) => a.dueOn.localeCompare(b.dueOn) || a.questionId - b.questionId);
}

/** The review's counts: questions in it, and due on Tehran day `today` or earlier (`items` as read, `content` the curriculum). */
export function reviewCountsOf(items: ReviewItem[], content: Curriculum, today: string): { inReview: number; due: number } {
  const all = entries(items, content, today);
  return { inReview: all.length, due: all.filter((e) => e.due).length };
}

/** `GET /api/review`: the review of `user` as of now (see {@link ReviewQueue}). */
export async function reviewQueue(deps: Deps, user: User): Promise<ReviewQueue> {
  const [content, { review }] = await Promise.all([deps.content.get(), nodeCollection(deps.db, user.id)]);
  const all = entries(review, content, tehranDay(deps.clock.now()));
  return { dueCount: all.filter((e) => e.due).length, items: all.slice(0, REVIEW_LIST_SIZE) };
}

/** The review's counts of learner `userId` as of now (the staff's view). */
export async function reviewCounts(deps: Deps, userId: number): Promise<{ inReview: number; due: number }> {
  const [content, { review }] = await Promise.all([deps.content.get(), nodeCollection(deps.db, userId)]);
  return reviewCountsOf(review, content, tehranDay(deps.clock.now()));
}
