/**
 * The data migrations this code has, in the order they apply: ids and descriptions only, so health can name
 * the unapplied ones without loading any migration's code or data (the steps are in `steps.ts`).
 * An id is sortable and never reused or renamed: the table records applied migrations by id.
 */
export const migrations = [
  {
    id: '0001-content-grades-4-5',
    description: 'Seed the curriculum of grades 4 and 5 (7 units, 28 nodes each)',
  },
  {
    id: '0002-plans-and-welcome-offer',
    description: 'Seed the subscription plans (30, 90, 180 days) and the advertised WELCOME10 discount code',
  },
  {
    id: '0003-admin-indexes',
    description: 'Index users, payment events, tickets, discount codes and tutor feedback for the staff API; mark plans that have orders',
  },
  {
    id: '0004-board-entry-names',
    description: "Copy the learners' names onto their entries of the current leaderboards (overall and this week's)",
  },
  {
    id: '0005-marketplace-period-truth',
    description: "Put each running marketplace subscription's period on its learner's subscription and schedule its daily re-check",
  },
  {
    id: '0006-sharded-boards',
    description: 'Move the current leaderboards onto write-sharded entries and XP histogram, rank for rank (issue 30)',
  },
  {
    id: '0007-user-directory',
    description:
      "Move the staff's list of learners from the user item (rewritten by every answer) to a directory entry per learner (issue 30)",
  },
] as const satisfies readonly MigrationInfo[];

export interface MigrationInfo {
  /** Sortable id, e.g. `0001-content-grades-4-5`. */
  id: string;
  description: string;
}

export type MigrationId = (typeof migrations)[number]['id'];
