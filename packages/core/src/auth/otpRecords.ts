/**
 * One-time code records for superusers (DESIGN §9: "an OTP record never shows a code"): per phone, how many
 * guesses were made, when a code was sent and when the record expires, and its state. Never the code or its
 * HMAC: {@link otpRecordView} copies only those fields.
 *
 * State at now: `expired` (past `expiresAt`), `dead` (5 guesses made: no code of this phone is accepted until it
 * expires), else `live`. A record with `codeSent: false` is a guard (a fixed-code test login, or guesses at a
 * phone that was sent no code).
 */
import type { Page } from '../db/items';
import type { Deps } from '../deps';
import { OTP_MAX_WRONG_GUESSES } from './otp';
import { type OtpItem, otpPage, readOtp } from './otp.entity';

export interface OtpRecordView {
  /** The phone (one record per phone). */
  id: string;
  phone: string;
  attempts: number;
  codeSent: boolean;
  /** ISO times. */
  sentAt: string | null;
  expiresAt: string;
  state: 'live' | 'dead' | 'expired';
}

/** What a record shows (never `codeHash`). */
export function otpRecordView(phone: string, item: OtpItem, now: number): OtpRecordView {
  const attempts = item.attempts ?? 0;
  return {
    id: phone,
    phone,
    attempts,
    codeSent: item.codeHash !== undefined,
    sentAt: item.sentAt === undefined ? null : new Date(item.sentAt).toISOString(),
    expiresAt: new Date(item.expiresAt * 1000).toISOString(),
    state: item.expiresAt * 1000 <= now ? 'expired' : attempts >= OTP_MAX_WRONG_GUESSES ? 'dead' : 'live',
  };
}

/**
 * `GET /api/admin/otp-records`: the record of `phone` (exactly as sent), or every record newest first, a page
 * from `cursor`. Errors: `validation_error` on `cursor`.
 */
export async function listOtpRecords(deps: Deps, query: { phone?: string; limit: number; cursor?: string }): Promise<Page<OtpRecordView>> {
  const now = deps.clock.now();
  if (query.phone !== undefined) {
    const item = await readOtp(deps.db, query.phone);
    return { items: item ? [otpRecordView(query.phone, item, now)] : [] };
  }
  const page = await otpPage(deps.db, query.limit, query.cursor);
  return { ...page, items: page.items.flatMap((item) => (item.phone ? [otpRecordView(item.phone, item, now)] : [])) };
}
