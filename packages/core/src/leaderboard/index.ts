/** Leaderboards: weekly (Tehran week) and overall, moved inside every XP grant and read in bounded requests. */

export {
  afterGrant,
  type BoardFields,
  leaveBoards,
  OVERALL_BOARD,
  WEEKLY_KEEP_DAYS,
  weeklyBoard,
  weeklyPosition,
  type XpMove,
  xpMove,
} from './board';
export { LEADERBOARD_CACHE_SECONDS, type Leaderboard, type LeaderboardRow, leaderboard, type Period, TOP_SIZE } from './read';
