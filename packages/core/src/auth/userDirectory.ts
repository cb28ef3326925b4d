/**
 * The staff's view of learners (DESIGN §9 users; spec "User and profile": publicId is shown and searchable in
 * admin). The list reads gsi2 `USERS` newest first (user.entity.ts), never a Scan; `q` finds:
 * - a publicId (`User123456`, any case) or a phone exactly as stored, through their constraint items (one read);
 * - otherwise any user whose publicId, phone or display name contains `q`, filtered within the index a page at
 *   a time (a short page with `nextCursor` means "read on").
 */
import type { Page } from '../db/items';
import { fillPage } from '../db/pages';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { heartsAt } from '../hearts';
import { usersCursorAfter, usersPage } from './directory.entity';
import { canonicalPublicId } from './publicId';
import { getUser, type User, userIdByPhone, userIdByPublicId } from './user.entity';
import { gradeOf } from './users';

/** A learner as the staff see it (times ISO; hearts as of now). */
export interface StaffUserView {
  id: number;
  publicId: string;
  phone: string;
  displayName: string | null;
  /** The learner's grade as their own answers name it (auth `gradeOf`: chosen, else the default grade). */
  gradeId: number;
  xp: number;
  stars: number;
  hearts: number;
  streakCurrent: number;
  subscription: { planTitle: string; expiresAt: string; active: boolean } | null;
  createdAt: string;
  lastLoginAt: string | null;
}

/** `user` as the staff see it at `deps.clock.now()`. */
export function staffUserView(deps: Pick<Deps, 'clock' | 'settings'>, user: User): StaffUserView {
  const now = deps.clock.now();
  const sub = user.subscription;
  return {
    id: user.id,
    publicId: user.publicId,
    phone: user.phone,
    displayName: user.displayName ?? null,
    gradeId: gradeOf(user),
    xp: user.xp,
    stars: user.stars,
    hearts: heartsAt(user, now, deps.settings).hearts,
    streakCurrent: user.streakCurrent ?? 0,
    subscription: sub ? { planTitle: sub.planTitle, expiresAt: new Date(sub.expiresAt).toISOString(), active: sub.expiresAt > now } : null,
    createdAt: user.createdAt,
    lastLoginAt: user.lastLoginAt ?? null,
  };
}

const PHONE = /^\+?[0-9]{7,15}$/;

/** The user an exact publicId or phone names, when `q` is one; undefined when `q` is neither or names nobody. */
async function exactMatch(deps: Deps, q: string): Promise<User | undefined> {
  const publicId = canonicalPublicId(q);
  const id = publicId ? await userIdByPublicId(deps.db, publicId) : PHONE.test(q) ? await userIdByPhone(deps.db, q) : undefined;
  return id === undefined ? undefined : getUser(deps.db, id);
}

/**
 * `GET /api/admin/users`: learners newest first (oldest first with `order: 'asc'`: the index's order, by creation),
 * `limit` a page from `cursor`, matching `q` when given (see the module doc). Errors: `validation_error` on `cursor`.
 */
export async function listUsers(
  deps: Deps,
  query: { q?: string; limit: number; cursor?: string; order?: 'asc' | 'desc' },
): Promise<Page<StaffUserView>> {
  const q = query.q?.trim();
  if (q && !query.cursor) {
    const exact = await exactMatch(deps, q);
    if (exact) return { items: [staffUserView(deps, exact)] };
  }
  const filter = q
    ? {
        condition: 'contains(publicId, :q) OR contains(phone, :q) OR contains(displayName, :q)',
        values: { ':q': canonicalPublicId(q) ?? q },
      }
    : undefined;
  const page = await fillPage((limit, cursor) => usersPage(deps.db, { limit, cursor, filter, ascending: query.order === 'asc' }), {
    ...query,
    ...(filter ? { cut: { readSize: 200, cursorOf: usersCursorAfter } } : {}),
  });
  return { ...page, items: page.items.map((u) => staffUserView(deps, u)) };
}

/** Learner `userId` as the staff see it. Errors: `not_found`. */
export async function getUserForStaff(deps: Deps, userId: number): Promise<StaffUserView> {
  const user = await getUser(deps.db, userId);
  if (!user) throw commonErrors.notFound('User');
  return staffUserView(deps, user);
}
