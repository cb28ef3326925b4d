/**
 * The capacity model's simulation (issue 30; DESIGN §14; docs/capacity.md): samples of learners driven through the
 * real domain code (sign-in, session check with its throttle count, home, answers, lesson and island completions,
 * leaderboard reads, the board-snapshot job) against DynamoDB Local, each request recorded by {@link Recorder}.
 *
 * - A normal school day (a Wednesday): `daySample` active learners, each with the day of a learner of §14: about 8
 *   grants (four islands' lessons, each island finished by its last lesson, 20 answers, a few wrong), the map 5
 *   times, the weekly board after the last grant and the overall board three hours later; a tenth sign in. Their
 *   sessions start at the quantiles of the day's distribution: 60 % between 16:00 and 20:00 Tehran, 25 % between
 *   07:00 and 16:00, 15 % between 20:00 and 23:00.
 * - The surge (Saturday 10:00 Tehran, a new week): `surgeSample` learners of one grade answer the same island's five
 *   questions and complete its quiz within ten minutes, at the quantiles of 500 grants a second with two 30-second
 *   bursts at 1,000; half read the weekly board right after, half come back to a board half an hour to an hour later.
 * Every learner has earned XP before (0 to 10,000, most of them little), so the overall board is a mature one; a third
 * of them hold a week's streak with a freeze, so their grants also move the freeze job's watch items.
 *
 * Learners run concurrently on `workers` simulated Lambda workers (each its own client and caches), in time order
 * (10-second steps). The board-snapshot job runs on the schedule's terms: before a leaderboard read whose board's
 * snapshot is a minute old.
 */
import { type Deps, ManualClock } from '@mathisland/core';
import {
  ACCESS_TOKEN_SECONDS,
  authenticate,
  login,
  mergeUserChanges,
  refresh,
  requestOtp,
  type User,
  type UserChange,
  updateUser,
} from '@mathisland/core/auth';
import { tehranDay } from '@mathisland/core/calendar';
import { seedGrades } from '@mathisland/core/curriculum';
import { createDb, type Db, ensureTable, transact } from '@mathisland/core/db';
import { leaderboard, xpMove } from '@mathisland/core/leaderboard';
import { applyMigrations } from '@mathisland/core/migrations';
import { answerQuestion, completeLesson, completeNode, home } from '@mathisland/core/progress';
import { fakeDeps } from '@mathisland/core/testing';
import { type CountingDeps, throttleTicket } from '@mathisland/core/throttle';
import { type ThrottleScope, throttleScopes } from '../../../infra/routes';
import { type Origin, Recorder } from './recorder';
import { type Learner, runInTimeOrder, type Step } from './run';
import { DAY_START, dayQuantile, HOUR, type Phase, SURGE_START, surgeQuantile } from './timeline';

export type { Phase } from './timeline';

export interface SimulationOptions {
  /** Active learners simulated through the normal day. */
  daySample: number;
  /** Learners simulated through the surge. */
  surgeSample: number;
  /** Simulated Lambda workers (clients with their own caches). */
  workers: number;
  /** Learners whose steps run at once. */
  concurrency: number;
  log?: (line: string) => void;
}

export interface Simulation {
  recorder: Recorder;
  options: SimulationOptions;
  /** When each phase ran, simulated epoch ms. */
  phases: Record<Phase, { from: number; to: number }>;
  /** Runs of the board-snapshot job per phase. */
  jobRuns: Record<Phase, number>;
  /** At each run of the job, the learners at each XP value of each board (the snapshots' histograms). */
  census: Array<{ phase: Phase; at: number; board: string; histogram: Array<[number, number]> }>;
  /** Wall-clock seconds the simulation took. */
  seconds: number;
}

const rule = (scope: ThrottleScope) => throttleScopes[scope];

/** Runs the simulation against DynamoDB Local at `endpoint`. */
export async function simulate(endpoint: string, options: SimulationOptions): Promise<Simulation> {
  const started = performance.now();
  const log = options.log ?? (() => undefined);
  const recorder = new Recorder();
  const tableName = `capacity-${process.pid}-${Date.now()}`;
  const newDb = (): Db => {
    const db = createDb({ tableName, endpoint, pool: { max: 16, connectTimeoutMs: 30_000, requestTimeoutMs: 60_000, maxAttempts: 4 } });
    recorder.attach(db);
    return db;
  };
  // Set up two days before the simulated day (sessions live that long); XP earned a week before that.
  const setupClock = new ManualClock(DAY_START - 2 * 86_400_000);
  const earnedBefore = DAY_START - 10 * 86_400_000;
  const as = <T>(origin: Origin, phase: string, now: () => number, work: () => Promise<T>, learner?: number) =>
    recorder.run({ origin, phase, now, ...(learner === undefined ? {} : { learner }) }, work);
  const setup = <T>(work: () => Promise<T>) => as('setup', 'setup', () => setupClock.now(), work);

  const base = newDb();
  await setup(async () => {
    await ensureTable(base);
    await applyMigrations(base, () => setupClock.now());
  });
  const workers = Array.from({ length: options.workers }, () => fakeDeps({ db: newDb(), now: setupClock.now() }));
  const jobDb = newDb();
  const content = await seedGrades();
  const grade = content[0] as (typeof content)[number];
  const nodes = grade.units.flatMap((u) => u.nodes);

  // Learners: signed in once (a month before), with XP earned before the simulated days.
  log(`setting up ${options.daySample + options.surgeSample} learners`);
  const learners: Learner[] = [];
  const makeLearner = async (i: number): Promise<Learner> => {
    const worker = i % options.workers;
    const deps = workers[worker] as Deps;
    const phone = `0936${String(i).padStart(7, '0')}`;
    return setup(async () => {
      await requestOtp(deps, phone);
      const code = (deps.sms as unknown as { lastCode(p: string): string }).lastCode(phone);
      const session = await login(deps, phone, code);
      const user = (await authenticate(deps, `Bearer ${session.accessToken}`)) as User;
      // 0 to 10,000 XP, most learners low (u² of a spread u): the overall board of a service a year old.
      const u = ((i * 7919) % 1000) / 1000;
      const prior = 5 * Math.floor(2000 * u * u);
      // A third of them keep a week's streak with a freeze (DESIGN §13), active the day before they play here: their
      // first grant of the day moves their streak watch item (the freeze job's index, gsi1) to the new day.
      const day = i < options.daySample ? DAY_START : SURGE_START;
      const streak: UserChange =
        i % 3 === 0 ? { set: { streakCurrent: 7, streakLongest: 7, streakLastDay: tehranDay(day - 86_400_000), streakFreezes: 1 } } : {};
      if (prior > 0) {
        const move = xpMove(deps.db, user, prior, earnedBefore - i * 1000);
        await transact(deps.db, [
          ...move.items,
          updateUser(deps.db, user.id, mergeUserChanges({ set: { xp: prior } }, move.user, streak), move.condition),
        ]);
      }
      return {
        userId: user.id,
        accessToken: session.accessToken,
        refreshToken: session.refreshToken,
        tokenAt: setupClock.now(),
        worker,
        wrongShare: 0.05 + ((i * 31) % 16) / 100,
        answerSeed: (i * 13) % 100,
        answers: 0,
      };
    });
  };
  const total = options.daySample + options.surgeSample;
  for (let i = 0; i < total; i += options.concurrency) {
    learners.push(...(await Promise.all(Array.from({ length: Math.min(options.concurrency, total - i) }, (_, k) => makeLearner(i + k)))));
  }
  const dayLearners = learners.slice(0, options.daySample);
  const surgeLearners = learners.slice(options.daySample);

  // What each learner does, when.
  const steps: Step[] = [];
  // The session check of every request, after the app's token refresh when its access token is near its hour.
  const signedIn = async (deps: Deps, learner: Learner, scope?: ThrottleScope) => {
    const now = deps.clock.now();
    if (now - learner.tokenAt > (ACCESS_TOKEN_SECONDS - 600) * 1000) {
      const renewed = (await refresh(deps, learner.refreshToken)) as { accessToken: string; refreshToken?: string };
      learner.accessToken = renewed.accessToken;
      if (renewed.refreshToken) learner.refreshToken = renewed.refreshToken;
      learner.tokenAt = now;
    }
    return authenticate(deps, `Bearer ${learner.accessToken}`, scope ? { scope, rule: rule(scope) } : undefined);
  };
  const ticket = (deps: Deps, learner: Learner, scope: ThrottleScope): CountingDeps => ({
    ...deps,
    throttle: throttleTicket(scope, `user:${learner.userId}`, rule(scope)),
  });
  const answerStep = (learner: Learner, phase: Phase, at: number, questionId: number, right: string, wrong: () => string) =>
    steps.push({
      at,
      learner,
      phase,
      run: async (deps) => {
        const user = await signedIn(deps, learner);
        const isWrong = (((learner.answerSeed + learner.answers++) * 37) % 100) / 100 < learner.wrongShare && user.hearts > 2;
        return answerQuestion(ticket(deps, learner, 'answer'), user, questionId, isWrong ? wrong() : right);
      },
    });
  const wrongOf = (q: (typeof nodes)[number]['lessons'][number]['questions'][number]) => () =>
    q.type === 'choice' ? ((q.choices ?? []).find((c) => c.id !== q.answer)?.id ?? q.answer) : String(Number(q.answer) + 1);
  const readBoard = (learner: Learner, phase: Phase, at: number, period: 'weekly' | 'overall') =>
    steps.push({
      at,
      learner,
      phase,
      reads: true,
      run: async (deps) => leaderboard(deps, await signedIn(deps, learner, 'leaderboard'), period, 50),
    });
  const showHome = (learner: Learner, phase: Phase, at: number) =>
    steps.push({ at, learner, phase, run: async (deps) => home(deps, await signedIn(deps, learner, 'home')) });

  dayLearners.forEach((learner, i) => {
    let at = DAY_START + dayQuantile((i + 0.5) / dayLearners.length);
    if (i % 10 === 0) {
      const phone = `0936${String(learners.indexOf(learner)).padStart(7, '0')}`;
      steps.push({
        at,
        learner,
        phase: 'day',
        run: async (deps) => {
          await requestOtp(deps, phone);
          const code = (deps.sms as unknown as { lastCode(p: string): string }).lastCode(phone);
          const session = await login(deps, phone, code);
          Object.assign(learner, { accessToken: session.accessToken, refreshToken: session.refreshToken, tokenAt: deps.clock.now() });
        },
      });
      at += 30_000;
    }
    showHome(learner, 'day', at);
    const after = (ms: number) => {
      at += ms;
      return at;
    };
    for (const node of nodes.slice(0, 4)) {
      for (const lesson of node.lessons.filter((l) => l.questions.length > 0)) {
        for (const q of lesson.questions) answerStep(learner, 'day', after(20_000), q.id, q.answer, wrongOf(q));
        steps.push({
          at: after(5_000),
          learner,
          phase: 'day',
          run: async (deps) => completeLesson(ticket(deps, learner, 'lesson_complete'), await signedIn(deps, learner), lesson.id),
        });
      }
      showHome(learner, 'day', after(5_000));
    }
    readBoard(learner, 'day', after(10_000), 'weekly');
    readBoard(learner, 'day', at + 3 * HOUR, 'overall');
  });

  const quiz = nodes[0] as (typeof nodes)[number];
  const quizQuestions = quiz.lessons.flatMap((l) => l.questions);
  surgeLearners.forEach((learner, i) => {
    const done = SURGE_START + surgeQuantile((i + 0.5) / surgeLearners.length) * 1000;
    for (const [k, q] of quizQuestions.entries()) {
      answerStep(learner, 'surge', done - (quizQuestions.length - k) * 20_000, q.id, q.answer, wrongOf(q));
    }
    steps.push({
      at: done,
      learner,
      phase: 'surge',
      run: async (deps) => completeNode(ticket(deps, learner, 'node_complete'), await signedIn(deps, learner), quiz.id),
    });
    if (i % 2 === 0) readBoard(learner, 'surge', done + 5_000, 'weekly');
    else readBoard(learner, 'after', done + (30 + (i % 30)) * 60_000, i % 4 === 1 ? 'weekly' : 'overall');
  });

  log(`running ${steps.length} steps`);
  const { phases, jobRuns, census } = await runInTimeOrder(steps, { workers, jobDb, as, concurrency: options.concurrency });
  for (const w of [...workers, { db: jobDb }, { db: base }]) w.db.raw.destroy();
  return { recorder, options, phases, jobRuns, census, seconds: (performance.now() - started) / 1000 };
}
