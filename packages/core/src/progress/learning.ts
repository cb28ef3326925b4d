/**
 * The learning loop (spec "Node (island)" table, Errors; DESIGN §3): the map, answering, and completing
 * lessons and nodes. Every change that grants XP or costs a heart is one conditional TransactWriteItems,
 * so a retry or a race never grants twice or takes a heart twice for one answer. Every XP grant carries the
 * condition `xp = <the XP it read>` on the user item (leaderboard/board.ts `xpMove`), so grants are serialized:
 * a lesson and its node's quiz completing at once cannot both credit the same questions; the loser re-reads
 * (the quiz recounts its credited lessons, the lesson sees the node completed and grants nothing).
 *
 * Locked rule: a node is unlocked when it is the first of its grade or the node before it on the map is
 * completed; the same rule gives `locked` in the map.
 */
import { BatchGetCommand, GetCommand, paginateQuery, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { User } from '../auth';
import { DEFAULT_GRADE_ID, getUser } from '../auth';
import { epochSeconds } from '../clock';
import type { CurriculumNode, Lesson, Question } from '../curriculum/store';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, transact, update } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { afterLosingOne, heartsAt } from '../hearts';
import { afterGrant, type XpMove, xpMove } from '../leaderboard/board';
import { newNotificationId, notificationItem } from '../notifications/index';
import { addDayActivity, recordStreakDay } from './activity';
import { progressErrors } from './errors';
import { checkAnswer, starsFor, XP_PER_CORRECT, XP_PER_STAR } from './rules';

export interface NodeProgress {
  nodeId: number;
  gradeId: number;
  completed: boolean;
  stars: number;
  /** XP granted when the node was completed (its own part, not its lessons'). */
  xp: number;
  /** Share of correct answers at completion, 0-1. */
  score: number;
  completedAt: string;
}

interface AnswerItem {
  questionId: number;
  lessonId: number;
  nodeId: number;
  correct: boolean;
  answeredAt: string;
}

interface LessonCompletion {
  lessonId: number;
  nodeId: number;
  stars: number;
  xp: number;
  completedAt: string;
}

/** Result of completing a lesson or node: stars of what was completed, XP gained by this call, the next node. */
export interface CompletionResult {
  stars: number;
  xp: number;
  nextNodeId: number | null;
  /** The node is completed (now or before). */
  nodeCompleted: boolean;
  /** This call found it already completed: nothing was granted again. */
  alreadyCompleted: boolean;
}

/** A completion as the API answers it: with the learner's streak after it. */
export type CompletionResponse = CompletionResult & { streak: { current: number; longest: number } };

/** Counts today for the streak after a successful completion (first or repeat). */
async function withStreak(deps: Deps, user: User, result: CompletionResult): Promise<CompletionResponse> {
  const streak = await recordStreakDay(deps, user.id, user);
  return { ...result, streak: { current: streak.current, longest: streak.longest } };
}

const MAX_OPTIMISTIC_RETRIES = 8;
const ATTEMPT_TTL_SECONDS = 7 * 24 * 3600;

async function curriculum(deps: Deps) {
  return deps.content.get();
}

/** Every node progress row of the user (one Query). */
export async function nodeProgressOf(deps: Deps, userId: number): Promise<Map<number, NodeProgress>> {
  const items: NodeProgress[] = [];
  const pages = paginateQuery(
    { client: deps.db.doc },
    {
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.nodeProgressPrefix },
    },
  );
  for await (const page of pages) items.push(...((page.Items ?? []) as NodeProgress[]));
  return new Map(items.map((p) => [p.nodeId, p]));
}

async function getNodeProgress(deps: Deps, userId: number, nodeId: number | null): Promise<NodeProgress | undefined> {
  if (nodeId === null) return undefined;
  const result = await deps.db.doc.send(
    new GetCommand({ TableName: deps.db.tableName, Key: keys.nodeProgress(userId, nodeId), ConsistentRead: true }),
  );
  return result.Item as NodeProgress | undefined;
}

/** Checks that `node` is unlocked: the first of its grade, or the node before it is completed. Errors: `node_locked`. */
async function requireUnlocked(deps: Deps, userId: number, node: CurriculumNode): Promise<void> {
  if (node.previousNodeId === null) return;
  if (!(await getNodeProgress(deps, userId, node.previousNodeId))?.completed) throw progressErrors.nodeLocked();
}

/** The node's own progress, after checking it is unlocked (both read at once). Errors: `node_locked`. */
async function unlockedProgress(deps: Deps, userId: number, node: CurriculumNode): Promise<NodeProgress | undefined> {
  const [own] = await Promise.all([getNodeProgress(deps, userId, node.id), requireUnlocked(deps, userId, node)]);
  return own;
}

async function lessonCompleted(deps: Deps, userId: number, lessonId: number): Promise<boolean> {
  const result = await deps.db.doc.send(
    new GetCommand({ TableName: deps.db.tableName, Key: keys.lessonCompletion(userId, lessonId), ConsistentRead: true }),
  );
  return result.Item !== undefined;
}

async function nodeAnswers(deps: Deps, userId: number, nodeId: number): Promise<Map<number, AnswerItem>> {
  const result = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': keys.userPartition(userId), ':prefix': keys.answerPrefix(nodeId) },
      ConsistentRead: true,
    }),
  );
  return new Map(((result.Items ?? []) as AnswerItem[]).map((a) => [a.questionId, a]));
}

async function lessonCompletions(deps: Deps, userId: number, lessons: Lesson[]): Promise<Map<number, LessonCompletion>> {
  if (lessons.length === 0) return new Map();
  const result = await deps.db.doc.send(
    new BatchGetCommand({
      RequestItems: {
        [deps.db.tableName]: { Keys: lessons.map((l) => keys.lessonCompletion(userId, l.id)), ConsistentRead: true },
      },
    }),
  );
  const items = (result.Responses?.[deps.db.tableName] ?? []) as LessonCompletion[];
  return new Map(items.map((l) => [l.lessonId, l]));
}

function requireAllAnswered(questions: Question[], answers: Map<number, AnswerItem>): number {
  const missing = questions.filter((q) => !answers.has(q.id)).map((q) => q.id);
  if (missing.length > 0) throw progressErrors.answersMissing(missing);
  return questions.filter((q) => answers.get(q.id)?.correct).length;
}

/** Errors: `no_hearts` when hearts are enforced and the learner has none (completion without answers). */
function requireHearts(deps: Deps, user: User): void {
  const hearts = heartsAt(user, deps.clock.now(), deps.settings);
  if (hearts.enforced && hearts.hearts <= 0) throw progressErrors.noHearts();
}

// ---------------------------------------------------------------------------------------------------------
// The map and progress

export interface HomeNode {
  id: number;
  title: string;
  locked: boolean;
  completed: boolean;
  stars: number;
}

export interface Home {
  gradeId: number;
  title: string;
  xp: number;
  stars: number;
  hearts: number;
  units: { id: number; title: string; nodes: HomeNode[] }[];
}

/** The map of `gradeId` (default: the learner's grade, else grade 4). Errors: `not_found` for an unknown grade. */
export async function home(deps: Deps, user: User, gradeId?: number): Promise<Home> {
  const content = await curriculum(deps);
  const grade = content.grade(gradeId ?? user.gradeId ?? DEFAULT_GRADE_ID);
  if (!grade) throw commonErrors.notFound('Grade');
  const progress = await nodeProgressOf(deps, user.id);
  return {
    gradeId: grade.id,
    title: grade.title,
    xp: user.xp,
    stars: user.stars,
    hearts: heartsAt(user, deps.clock.now(), deps.settings).hearts,
    units: grade.units.map((unit) => ({
      id: unit.id,
      title: unit.title,
      nodes: unit.nodes.map((node) => {
        const own = progress.get(node.id);
        const previous = node.previousNodeId === null ? undefined : progress.get(node.previousNodeId);
        return {
          id: node.id,
          title: node.title,
          locked: node.previousNodeId !== null && !previous?.completed,
          completed: Boolean(own?.completed),
          stars: own?.stars ?? 0,
        };
      }),
    })),
  };
}

/** The caller's node progress rows, in map order. */
export async function listNodeProgress(deps: Deps, user: User): Promise<NodeProgress[]> {
  const progress = await nodeProgressOf(deps, user.id);
  return [...progress.values()].sort((a, b) => a.nodeId - b.nodeId);
}

// ---------------------------------------------------------------------------------------------------------
// Answering

export interface AnswerResult {
  correct: boolean;
  /** Shown after a wrong answer so the learner can learn from it. */
  correctAnswer?: string;
  hearts: number;
  maxHearts: number;
  nextHeartAt: number | null;
  /** The learner's total XP (answers themselves grant none; completions do). */
  xp: number;
}

/**
 * Checks `answer` to question `questionId` on the server and records it as the learner's latest answer to
 * that question. A wrong answer costs one heart when hearts are enforced. With `attemptId`, a retried
 * request replays the first result instead of answering twice.
 *
 * Errors: `not_found` (question), `node_locked`, `no_hearts` (enforced, 0 hearts), `validation_error`
 * (answer not a choice id / not a number), `idempotency_conflict` (attemptId used for another question).
 */
export async function answerQuestion(
  deps: Deps,
  user: User,
  questionId: number,
  answer: string,
  attemptId?: string,
): Promise<AnswerResult> {
  const content = await curriculum(deps);
  const question = content.question(questionId);
  if (!question) throw commonErrors.notFound('Question');
  const node = content.node(question.nodeId) as CurriculumNode;
  await requireUnlocked(deps, user.id, node);
  const correct = checkAnswer(question, answer);
  if (correct === undefined) {
    throw progressErrors.invalidAnswer(
      question.type === 'choice' ? 'answer must be the id of one of the choices' : 'answer must be a number',
    );
  }

  let current: User = user;
  for (let attempt = 0; attempt < MAX_OPTIMISTIC_RETRIES; attempt++) {
    if (attemptId) {
      const replay = await replayAttempt(deps, user.id, attemptId, questionId);
      if (replay) return replay;
    }
    const now = deps.clock.now();
    const hearts = heartsAt(current, now, deps.settings);
    if (hearts.enforced && hearts.hearts <= 0) throw progressErrors.noHearts();
    const losesHeart = !correct && hearts.enforced;
    const after = losesHeart ? afterLosingOne(hearts, now) : hearts.stored;
    const afterState = heartsAt(after, now, deps.settings);
    const result: AnswerResult = {
      correct,
      ...(correct ? {} : { correctAnswer: question.answer }),
      hearts: afterState.hearts,
      maxHearts: afterState.maxHearts,
      nextHeartAt: afterState.nextHeartAt,
      xp: current.xp,
    };
    const answeredAt = new Date(now).toISOString();
    try {
      await transact(deps.db, [
        put(deps.db, {
          ...keys.answer(user.id, node.id, question.id),
          questionId: question.id,
          lessonId: question.lessonId,
          nodeId: node.id,
          correct,
          answeredAt,
        }),
        addDayActivity(deps.db, user.id, now, { answered: 1, correct: correct ? 1 : 0 }),
        // The learner's last wrong answer to this question, for the tutor's questionId grounding (issue 5 §2).
        ...(correct ? [] : [put(deps.db, { ...keys.wrongAnswer(user.id, question.id), questionId: question.id, answer, answeredAt })]),
        ...(attemptId
          ? [
              put(
                deps.db,
                { ...keys.attempt(user.id, attemptId), questionId, result, expiresAt: epochSeconds(now) + ATTEMPT_TTL_SECONDS },
                { condition: 'attribute_not_exists(pk)' },
              ),
            ]
          : []),
        losesHeart
          ? update(
              deps.db,
              keys.user(user.id),
              `SET hearts = :h, heartsUpdatedAt = :t${after.hearts === 0 ? ', heartsEmptyAt = :now' : ''} ADD answeredCount :one, correctCount :c`,
              {
                condition: 'attribute_exists(pk) AND hearts = :oh AND heartsUpdatedAt = :ot',
                values: {
                  ':one': 1,
                  ':c': 0,
                  ':h': after.hearts,
                  ':t': after.heartsUpdatedAt,
                  ':oh': current.hearts,
                  ':ot': current.heartsUpdatedAt,
                  ...(after.hearts === 0 ? { ':now': now } : {}),
                },
              },
            )
          : update(deps.db, keys.user(user.id), 'ADD answeredCount :one, correctCount :c', {
              condition: 'attribute_exists(pk)',
              values: { ':one': 1, ':c': correct ? 1 : 0 },
            }),
      ]);
      return result;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      // Another answer changed the hearts first (or the attempt was recorded concurrently): reload and retry.
      const fresh = await getUser(deps.db, user.id);
      if (!fresh) throw commonErrors.notFound('User');
      current = fresh;
    }
  }
  throw progressErrors.busy();
}

async function replayAttempt(deps: Deps, userId: number, attemptId: string, questionId: number): Promise<AnswerResult | undefined> {
  const item = (
    await deps.db.doc.send(new GetCommand({ TableName: deps.db.tableName, Key: keys.attempt(userId, attemptId), ConsistentRead: true }))
  ).Item as { questionId: number; result: AnswerResult } | undefined;
  if (!item) return undefined;
  if (item.questionId !== questionId) throw progressErrors.attemptConflict();
  return item.result;
}

// ---------------------------------------------------------------------------------------------------------
// Completing

/**
 * Marks `node` completed for the first time: one transaction that writes the progress row (condition: not
 * there yet) and adds XP and stars to the user. When the row exists already (a retry or a race), the node
 * stays finished and only its stars can rise.
 */
async function finishNode(
  deps: Deps,
  user: User,
  node: CurriculumNode,
  stats: { correct: number; total: number; creditedCorrect: number; creditedLessons: number[] },
): Promise<CompletionResult | 'recount'> {
  const stars = starsFor(stats.correct, stats.total);
  const xp = stats.total === 0 ? 0 : stats.creditedCorrect * XP_PER_CORRECT + stars * XP_PER_STAR;
  let current = user;
  const notificationId = await newNotificationId(deps.db);
  for (let attempt = 0; attempt < MAX_OPTIMISTIC_RETRIES; attempt++) {
    const now = deps.clock.now();
    const row: NodeProgress = {
      nodeId: node.id,
      gradeId: node.gradeId,
      completed: true,
      stars,
      xp,
      score: stats.total === 0 ? 0 : stats.correct / stats.total,
      completedAt: new Date(now).toISOString(),
    };
    const move = xpMove(deps.db, current, xp, now);
    try {
      await transact(deps.db, [
        put(deps.db, { ...keys.nodeProgress(user.id, node.id), ...row }, { condition: 'attribute_not_exists(pk)' }),
        addDayActivity(deps.db, user.id, now, { completedNodes: 1 }),
        update(deps.db, keys.user(user.id), `ADD xp :xp, stars :stars, completedNodes :one${setClause(move)}`, {
          condition: move.userCondition,
          values: { ':xp': xp, ':stars': stars, ':one': 1, ...move.values },
        }),
        ...move.items,
        notificationItem(deps.db, user.id, notificationId, 'island_completed', { nodeId: node.id, title: node.title, stars, xp }, now),
      ]);
      return { stars, xp, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted: false };
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const existing = await getNodeProgress(deps, user.id, node.id);
      if (existing) return raiseStars(deps, user, node, existing, stars);
      // A credited lesson was completed meanwhile: the caller counts the node's XP again.
      if (stats.creditedLessons.length > 0) {
        const done = await lessonCompletions(
          deps,
          user.id,
          node.lessons.filter((l) => stats.creditedLessons.includes(l.id)),
        );
        if (done.size > 0) return 'recount';
      }
      // Not completed yet: another grant changed the XP first. Re-read the user and move from there.
      current = await reloadUser(deps, user.id);
    }
  }
  throw progressErrors.busy();
}

const setClause = (move: XpMove) => (move.userSet ? ` SET ${move.userSet}` : '');

async function reloadUser(deps: Deps, userId: number): Promise<User> {
  const fresh = await getUser(deps.db, userId);
  if (!fresh) throw commonErrors.notFound('User');
  return fresh;
}

/** A repeat completion: grants no XP; raises the node's stars (and the user's total) when the new score is better. */
async function raiseStars(deps: Deps, user: User, node: CurriculumNode, existing: NodeProgress, stars: number): Promise<CompletionResult> {
  const result = { xp: 0, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted: true };
  if (stars <= existing.stars) return { ...result, stars: existing.stars };
  try {
    await transact(deps.db, [
      update(deps.db, keys.nodeProgress(user.id, node.id), 'SET stars = :new', {
        condition: 'stars = :old',
        values: { ':new': stars, ':old': existing.stars },
      }),
      update(deps.db, keys.user(user.id), 'ADD stars :diff', { values: { ':diff': stars - existing.stars } }),
    ]);
    return { ...result, stars };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const latest = await getNodeProgress(deps, user.id, node.id);
    return { ...result, stars: Math.max(stars, latest?.stars ?? 0) };
  }
}

/**
 * `POST /api/nodes/{id}/quiz/complete`: completes an unlocked node from the recorded answers to all of its
 * questions. Any score completes. Errors: `not_found`, `node_locked`, `no_hearts` (node without questions,
 * 0 hearts, enforced), `answers_missing`.
 */
export async function completeNode(deps: Deps, user: User, nodeId: number): Promise<CompletionResponse> {
  return withStreak(deps, user, await completeNodeOnce(deps, user, nodeId));
}

async function completeNodeOnce(deps: Deps, user: User, nodeId: number): Promise<CompletionResult> {
  const content = await curriculum(deps);
  const node = content.node(nodeId);
  if (!node) throw commonErrors.notFound('Node');
  const own = await unlockedProgress(deps, user.id, node);
  const questions = content.nodeQuestions(node.id);
  if (questions.length === 0) requireHearts(deps, user);
  const answers = questions.length === 0 ? new Map<number, AnswerItem>() : await nodeAnswers(deps, user.id, node.id);
  const correct = requireAllAnswered(questions, answers);
  if (own?.completed) return raiseStars(deps, user, node, own, starsFor(correct, questions.length));
  let current = user;
  for (let attempt = 0; attempt < MAX_OPTIMISTIC_RETRIES; attempt++) {
    const counted = node.lessons.filter((l) => l.questions.length > 0);
    const completed = await lessonCompletions(deps, current.id, counted);
    // Questions of lessons already completed earned their XP there; the quiz credits the others.
    const creditedLessons = counted.filter((l) => !completed.has(l.id)).map((l) => l.id);
    const creditedCorrect = questions.filter((q) => creditedLessons.includes(q.lessonId) && answers.get(q.id)?.correct).length;
    const result = await finishNode(deps, current, node, { correct, total: questions.length, creditedCorrect, creditedLessons });
    if (result !== 'recount') return result;
    current = await reloadUser(deps, user.id);
  }
  throw progressErrors.busy();
}

/**
 * `POST /api/lessons/{id}/complete`: completes a lesson of an unlocked node from the recorded answers to its
 * questions (a lesson without questions completes with no XP). When every lesson of the node that has
 * questions is completed, the node is completed too. `stars` are the lesson's; `xp` is all this call
 * granted (lesson XP plus the node's star bonus).
 *
 * Errors: `not_found`, `node_locked`, `no_hearts` (lesson without questions, 0 hearts, enforced),
 * `answers_missing`.
 */
export async function completeLesson(deps: Deps, user: User, lessonId: number): Promise<CompletionResponse> {
  return withStreak(deps, user, await completeLessonOnce(deps, user, lessonId));
}

async function completeLessonOnce(deps: Deps, user: User, lessonId: number): Promise<CompletionResult> {
  const content = await curriculum(deps);
  const lesson = content.lesson(lessonId);
  if (!lesson) throw commonErrors.notFound('Lesson');
  const node = content.node(lesson.nodeId) as CurriculumNode;
  const own = await unlockedProgress(deps, user.id, node);
  if (lesson.questions.length === 0) requireHearts(deps, user);
  const answers = lesson.questions.length === 0 ? new Map<number, AnswerItem>() : await nodeAnswers(deps, user.id, node.id);
  const correct = requireAllAnswered(lesson.questions, answers);
  const stars = starsFor(correct, lesson.questions.length);
  let xp = own?.completed ? 0 : correct * XP_PER_CORRECT;
  let gained = xp;
  let alreadyCompleted = false;
  let current = user;
  for (let attempt = 0; ; attempt++) {
    if (attempt === MAX_OPTIMISTIC_RETRIES) throw progressErrors.busy();
    const now = deps.clock.now();
    const move = xpMove(deps.db, current, xp, now);
    try {
      const completion: LessonCompletion = { lessonId: lesson.id, nodeId: node.id, stars, xp, completedAt: new Date(now).toISOString() };
      await transact(deps.db, [
        put(deps.db, { ...keys.lessonCompletion(user.id, lesson.id), ...completion }, { condition: 'attribute_not_exists(pk)' }),
        addDayActivity(deps.db, user.id, now, { completedLessons: 1 }),
        update(deps.db, keys.user(user.id), `ADD xp :xp, completedLessons :one${setClause(move)}`, {
          condition: move.userCondition,
          values: { ':xp': xp, ':one': 1, ...move.values },
        }),
        ...move.items,
      ]);
      current = afterGrant(current, xp, now);
      break;
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      if (await lessonCompleted(deps, user.id, lesson.id)) {
        gained = 0;
        alreadyCompleted = true;
        break;
      }
      // The node was completed meanwhile (its quiz credited this lesson's questions), or the XP changed.
      if (xp > 0 && (await getNodeProgress(deps, user.id, node.id))?.completed) xp = 0;
      gained = xp;
      current = await reloadUser(deps, user.id);
    }
  }

  if (own?.completed) {
    return { stars, xp: gained, nextNodeId: node.nextNodeId, nodeCompleted: true, alreadyCompleted };
  }
  const counted = node.lessons.filter((l) => l.questions.length > 0);
  const completed = await lessonCompletions(deps, user.id, counted);
  if (!counted.every((l) => completed.has(l.id))) {
    return { stars, xp: gained, nextNodeId: node.nextNodeId, nodeCompleted: false, alreadyCompleted };
  }
  const nodeQuestions = content.nodeQuestions(node.id);
  // `answers` already holds the whole node's answers when this lesson has questions (nodeAnswers reads the node).
  const allAnswers = lesson.questions.length > 0 || nodeQuestions.length === 0 ? answers : await nodeAnswers(deps, user.id, node.id);
  const nodeCorrect = nodeQuestions.filter((q) => allAnswers.get(q.id)?.correct).length;
  const finished = await finishNode(deps, current, node, {
    correct: nodeCorrect,
    total: nodeQuestions.length,
    creditedCorrect: 0,
    creditedLessons: [],
  });
  if (finished === 'recount') throw new Error('unreachable: a node finished by its lessons credits none');
  return {
    stars,
    xp: gained + (finished.alreadyCompleted ? 0 : finished.xp),
    nextNodeId: node.nextNodeId,
    nodeCompleted: true,
    alreadyCompleted,
  };
}
