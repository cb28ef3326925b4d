/**
 * The one conditional transaction of a lesson or node completion (spec "Node (island)"; DESIGN §5; issue 15).
 *
 * Everything a completion changes goes into a single TransactWriteItems, with the conditions that make a retry
 * or a race harmless: the lesson's completion (condition: not there yet), the node's first completion (not there
 * yet) or the rise of its stars (still the stars read), checks that the node's other lessons found missing are
 * still missing (so two last lessons completing at once cannot both leave the node unfinished), the day's
 * activity, the grant (grant.ts: the user item's XP, stars, counters and streak with their conditions, both
 * leaderboards' items, the streak's notifications), the `island_completed` notification and the route's throttle
 * hit (`transactCounting`). A lost race cancels all of it; the caller re-reads and decides again.
 */
import type { User } from '../auth';
import { check, type TxItem } from '../db/transact';
import { countEvent } from '../metrics';
import { notificationItem } from '../notifications';
import { type CountingDeps, transactCounting } from '../throttle';
import type { Streak } from './activity';
import { addDayActivity } from './dayActivity.entity';
import { grantChanges, grantItems, notificationIds, planGrant, streakAfter } from './grant';
import { lessonCompletionKey, putLessonCompletion } from './lessonCompletion.entity';
import type { CurriculumNode } from './lock';
import { type NodeProgress, putFirstCompletion, raiseStarsItem } from './nodeProgress.entity';

/** What one completion call writes, decided from what it read. */
export interface CompletionWrite {
  /** The lesson completed now (its row; XP included in `xp`). */
  lesson?: { lessonId: number; stars: number; xp: number };
  /** The node completed now for the first time (its row). */
  node?: NodeProgress;
  /** A repeat completion raising the node's stars. */
  raiseStars?: { from: number; to: number };
  /** Lessons of the node that were found missing and must still be missing. */
  missingLessons?: number[];
  /** XP granted by this call (lesson and node together). */
  xp: number;
  /** Stars added to the user's total. */
  stars: number;
}

/**
 * Writes `write` for `user` (as last read) on `node` at the clock's now, in one transaction; nothing at all when
 * it changes nothing (a repeat completion on a day that already counts). Returns the learner's streak after it. Errors: TransactionCanceledException when a condition failed
 * (the caller re-reads and decides again), `throttled` (nothing written).
 */
export async function writeCompletion(deps: CountingDeps, user: User, node: CurriculumNode, write: CompletionWrite): Promise<Streak> {
  const now = deps.clock.now();
  const plan = planGrant(
    user,
    {
      xp: write.xp,
      stars: write.stars,
      counters: { ...(write.lesson ? { completedLessons: 1 } : {}), ...(write.node ? { completedNodes: 1 } : {}) },
      activity: true,
    },
    now,
  );
  const changes = write.lesson || write.node || write.raiseStars || grantChanges(plan);
  if (!changes) return streakAfter(user, plan);
  // The island's notification id first, then the grant's (freezes used, milestone).
  const ids = notificationIds(deps, (write.node ? 1 : 0) + plan.notifications);
  const [islandId] = ids;
  const items: TxItem[] = [
    ...(write.missingLessons ?? []).map((id) =>
      check(deps.db, lessonCompletionKey(user.id, id), { condition: 'attribute_not_exists(pk)' }),
    ),
    ...(write.lesson
      ? [putLessonCompletion(deps.db, user.id, { ...write.lesson, nodeId: node.id, completedAt: new Date(now).toISOString() })]
      : []),
    ...(write.node ? [putFirstCompletion(deps.db, user.id, write.node)] : []),
    ...(write.raiseStars ? [raiseStarsItem(deps.db, user.id, node.id, write.raiseStars.from, write.raiseStars.to)] : []),
    ...(write.lesson || write.node
      ? [
          addDayActivity(deps.db, user.id, now, {
            completedLessons: write.lesson ? 1 : undefined,
            completedNodes: write.node ? 1 : undefined,
          }),
        ]
      : []),
    ...grantItems(deps, user, plan, write.node ? ids.slice(1) : ids),
    ...(write.node
      ? [
          notificationItem(
            deps.db,
            user.id,
            islandId as number,
            'island_completed',
            { nodeId: node.id, title: node.title, stars: write.node.stars, xp: write.node.xp },
            now,
          ),
        ]
      : []),
  ];
  await transactCounting(deps, items);
  if (write.lesson) countEvent('Completions', { kind: 'lesson' });
  if (write.node) countEvent('Completions', { kind: 'island' });
  return streakAfter(user, plan);
}
