/**
 * The signed stop link of the parent's weekly report (DESIGN §13): `GET /api/parent/stop?token=<token>`, no sign-in.
 *
 * The token is `<userId>x<20 hex digits>`: the first 80 bits of HMAC-SHA256 under SECRET_KEY of
 * `parent-stop:<userId>:<phone>`, so it stops the reports of that learner to that number only (a link from an earlier
 * number stops nothing), it cannot be guessed, and it holds only letters and digits: it travels as a token of the
 * sms template (`%token20`; Kavenegar refuses spaces and `_` in tokens, 431), while the template holds the link's
 * fixed part (PUBLIC_BASE_URL + `/api/parent/stop?token=`), since free links in a message can be refused (420).
 * The link works until the number is removed or changed; stopping twice answers the same.
 */
import { hmacHex, safeEqual } from '../auth';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { parentErrors } from './errors';
import { getParentLink, stopItem } from './parentLink.entity';

const TOKEN = /^([1-9][0-9]{0,11})x([0-9a-f]{20})$/;

/** The stop token of learner `userId`'s reports to `phone`. */
export const stopToken = (deps: Pick<Deps, 'secretKey'>, userId: number, phone: string): string =>
  `${userId}x${hmacHex(deps.secretKey, `parent-stop:${userId}:${phone}`).slice(0, 20)}`;

/**
 * Stops the reports `token` names (again: the same answer). Errors: `not_found` for a
 * token that is not one, or whose learner's reports no longer go to its number (removed, changed, account deleted).
 */
export async function stopByLink(deps: Deps, token: string): Promise<{ stopped: true }> {
  const match = TOKEN.exec(token);
  if (!match) throw parentErrors.stopLinkInvalid();
  const userId = Number(match[1]);
  const link = await getParentLink(deps.db, userId);
  if (!link?.phone || link.status === 'none' || !safeEqual(token, stopToken(deps, userId, link.phone)))
    throw parentErrors.stopLinkInvalid();
  if (link.status === 'stopped') return { stopped: true };
  try {
    await transact(deps.db, [stopItem(deps.db, userId, link.phone, deps.clock.now())]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Changed meanwhile: stopped by another click (fine), or the number removed or replaced (this link is void).
    const now = await getParentLink(deps.db, userId);
    if (!(now?.status === 'stopped' && now.phone === link.phone)) throw parentErrors.stopLinkInvalid();
  }
  return { stopped: true };
}
