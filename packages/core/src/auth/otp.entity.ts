/**
 * The one-time sign-in code of a phone (spec Authentication 2-4): pk `OTP#<phone>`, sk `OTP`, TTL; gsi2
 * `OTPS` / `<written at ms 13>#<phone>` lists them for superusers (otpRecords.ts), newest first.
 * The code is stored only as an HMAC under SECRET_KEY. A code that confirms the phone for something else than
 * signing in (a parent's number for the weekly report, DESIGN §13) is the same item under its own sort key (the
 * scope, e.g. `PARENT#<userId>`), with the same TTL and wrong-guess limit, not listed for the staff, so it can never
 * be used to sign in, nor a sign-in code to confirm. The item also guards phones without a live code
 * (fixed-code test logins, guesses at random phones): then it holds only the wrong-guess count.
 *
 * A code also remembers whose phone it was sent to, as looked up when it was sent (`userId`, `publicId`, or
 * `noUser`), so a login needs no lookup of the phone (issue 15): the login's own transaction still checks the
 * user is there (and a phone taken meanwhile fails the new user's constraint item), so a stale note only costs a
 * lookup, never a wrong account.
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { deleteItem, getItem, getRawItems, keyId, type Page, parseItem, putItem, queryPage, updateItem } from '../db/items';
import { type Key, pad } from '../db/keys';
import { remove, type TxItem } from '../db/transact';
import { lazySchema } from '../lazySchema';
import { PhoneItem, phoneKey } from './user.entity';

/** The sort key of a sign-in code; a code confirming the phone for something else has its own (a parent's: `PARENT#<userId>`). */
export const SIGN_IN_SCOPE = 'OTP';
export const otpKey = (phone: string, scope = SIGN_IN_SCOPE): Key => ({ pk: `OTP#${phone}`, sk: scope });
/** The gsi2 attributes of the staff's list, for sign-in codes only. */
const listed = (scope: string, atMs: number, phone: string) =>
  scope === SIGN_IN_SCOPE ? { gsi2pk: OTP_INDEX, gsi2sk: otpIndexSk(atMs, phone) } : {};
const OTP_INDEX = 'OTPS';
const otpIndexSk = (atMs: number, phone: string): string => `${pad(atMs, 13)}#${phone}`;

export const OtpItem = lazySchema(() =>
  z
    .object({
      /** The phone, exactly as sent (absent on items written before the staff list). */
      phone: z.string().optional(),
      /** HMAC-SHA256 of `otp:<phone>:<code>` under SECRET_KEY; absent on a guard item. */
      codeHash: z.string().optional(),
      /** Wrong guesses so far. */
      attempts: z.number().int().nonnegative().optional(),
      /** When the code was sent, epoch ms. */
      sentAt: z.number().int().optional(),
      /** The phone's user when the code was sent (absent on guard items and older codes). */
      userId: z.number().int().positive().optional(),
      /** That user's publicId, when the phone item holds it. */
      publicId: z.string().optional(),
      /** The phone had no user when the code was sent. */
      noUser: z.boolean().optional(),
      /** TTL, epoch seconds; reads also check it (DynamoDB deletes late). */
      expiresAt: z.number().int(),
    })
    .describe('one-time code'),
);
export type OtpItem = z.infer<typeof OtpItem>;

export const readOtp = (db: Db, phone: string, scope = SIGN_IN_SCOPE): Promise<OtpItem | undefined> =>
  getItem(db, otpKey(phone, scope), OtpItem);

/** Who owns a phone, as a code notes it: the user and their publicId, or nobody yet. */
export type PhoneOwner = Pick<OtpItem, 'userId' | 'publicId' | 'noUser'>;

/** The code item of `phone` and the phone's owner, read together (one BatchGetItem). */
export async function readOtpAndOwner(db: Db, phone: string): Promise<{ otp: OtpItem | undefined; owner: PhoneOwner }> {
  const items = await getRawItems(db, [otpKey(phone), phoneKey(phone)]);
  const otp = items.get(keyId(otpKey(phone)));
  const ref = items.get(keyId(phoneKey(phone)));
  const owned = ref ? parseItem(PhoneItem, ref) : undefined;
  return {
    otp: otp ? parseItem(OtpItem, otp) : undefined,
    owner: owned ? { userId: owned.userId, ...(owned.publicId ? { publicId: owned.publicId } : {}) } : { noUser: true },
  };
}

/**
 * Stores a fresh code for `phone` with its owner, replacing `replaced` (the scope's code item as read, and its
 * wrong-guess count; undefined: none was read) only if it is still that item: of requests that read the same state
 * at once, one stores its code and sends it. Returns false when another request stored a code first (the caller
 * sends nothing).
 */
export async function saveOtp(
  db: Db,
  phone: string,
  item: Required<Pick<OtpItem, 'codeHash' | 'sentAt' | 'expiresAt'>> & PhoneOwner,
  replaced: Pick<OtpItem, 'codeHash' | 'expiresAt'> | undefined,
  scope = SIGN_IN_SCOPE,
): Promise<boolean> {
  // A code is told apart by its hash (random per code); a guard item, which has none, by its expiry.
  const asRead = !replaced
    ? { condition: 'attribute_not_exists(pk)' }
    : replaced.codeHash
      ? { condition: 'codeHash = :read', values: { ':read': replaced.codeHash } }
      : { condition: 'attribute_not_exists(codeHash) AND expiresAt = :read', values: { ':read': replaced.expiresAt } };
  try {
    await putItem(db, { ...otpKey(phone, scope), ...listed(scope, item.sentAt, phone), phone, ...item, attempts: 0 }, asRead);
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/**
 * One page of every phone's code item, newest first (gsi2 `OTPS`), from `cursor`. Errors: `validation_error`
 * on `cursor`.
 */
export const otpPage = (db: Db, limit: number, cursor?: string): Promise<Page<OtpItem>> =>
  queryPage(db, { index: 'gsi2', partition: OTP_INDEX, descending: true, limit }, OtpItem, cursor);

/** Drops the code of `phone` (the sms provider refused it). */
export const dropOtp = (db: Db, phone: string, scope = SIGN_IN_SCOPE): Promise<void> => deleteItem(db, otpKey(phone, scope));

/**
 * Reserves one guess at the code of `phone` BEFORE it is checked, in a single conditional update: it succeeds
 * only while the item is live and fewer than `max` guesses were reserved, so a burst of parallel guesses can
 * never have more than `max` of them checked (DESIGN §11). A phone without an item (a fixed-code test login,
 * a guess at a random phone) gets a guard item living until `guardExpiresAt`; an expired item left behind by
 * TTL is replaced by one. Returns the item after the reservation (with the code hash to check against), or
 * undefined when the code is dead: `max` guesses were already made.
 */
export async function reserveGuess(
  db: Db,
  phone: string,
  max: number,
  nowSeconds: number,
  guardExpiresAt: number,
  scope = SIGN_IN_SCOPE,
): Promise<OtpItem | undefined> {
  const index = listed(scope, nowSeconds * 1000, phone);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const after = await updateItem(
        db,
        otpKey(phone, scope),
        `SET attempts = if_not_exists(attempts, :zero) + :one, expiresAt = if_not_exists(expiresAt, :exp), phone = :phone${
          index.gsi2pk ? ', gsi2pk = :gpk, gsi2sk = if_not_exists(gsi2sk, :gsk)' : ''
        }`,
        {
          condition: 'attribute_not_exists(pk) OR (expiresAt > :now AND (attribute_not_exists(attempts) OR attempts < :max))',
          values: {
            ':zero': 0,
            ':one': 1,
            ':max': max,
            ':now': nowSeconds,
            ':exp': guardExpiresAt,
            ':phone': phone,
            ...(index.gsi2pk ? { ':gpk': index.gsi2pk, ':gsk': index.gsi2sk } : {}),
          },
        },
        'ALL_NEW',
      );
      return parseItem(OtpItem, after);
    } catch (error) {
      if (!isConditionFailure(error)) throw error;
      const current = await readOtp(db, phone, scope);
      if (current && current.expiresAt > nowSeconds) return undefined; // live and out of guesses: dead
      // Expired but not yet removed by TTL: remove it (unless replaced meanwhile) and reserve on a fresh guard.
      if (current)
        await deleteItem(db, otpKey(phone, scope), { condition: 'expiresAt = :old', values: { ':old': current.expiresAt } }).catch(
          () => {},
        );
    }
  }
  return undefined;
}

/**
 * Consumes the code of `phone` after a right guess: one conditional delete that holds only while the stored
 * hash is still `codeHash` (a newer code was not sent meanwhile), so two logins racing with one code cannot
 * both succeed. Without `codeHash` (a fixed or master code) the guard item is deleted unconditionally.
 * Errors: ConditionalCheckFailedException.
 */
export const consumeOtp = (db: Db, phone: string, codeHash: string | undefined): Promise<void> =>
  deleteItem(db, otpKey(phone), consumeCondition(codeHash));

/** The same consumption as a transaction item, for a login that consumes its code with the session it starts. */
export const consumeOtpItem = (db: Db, phone: string, codeHash: string | undefined, scope = SIGN_IN_SCOPE): TxItem =>
  remove(db, otpKey(phone, scope), consumeCondition(codeHash));

const consumeCondition = (codeHash: string | undefined) =>
  codeHash === undefined ? {} : { condition: 'codeHash = :h', values: { ':h': codeHash } };
