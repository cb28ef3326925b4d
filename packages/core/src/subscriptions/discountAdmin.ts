/**
 * Staff editing of discount codes and offers (DESIGN §9; spec Authentication 6: codes can be added or changed
 * only by a superuser, checked at the edge with `add_discountcode` / `change_discountcode`). Rules as for
 * `saveDiscountCode` (discounts.ts): code 3-32 of A-Z 0-9 _ - (stored upper case, never renamed), percent 1-100,
 * perUserLimit ≥ 1, maxUses ≥ 1 or null (unlimited), validFrom < validUntil, planIds of existing plans or null
 * (every plan). `uses` is counted by orders only. A code that was used cannot be deleted (409
 * `discount_code_used`: deactivate it). An offer is an advertised code; its title and advertising change with
 * `change_offer`.
 */
import { isConditionFailure, retryOptimistic } from '../db/conditions';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { fieldChanges, type HistoryAction, historyItems } from '../history';
import { auditStaffAction } from '../log';
import {
  allDiscountCodes,
  changedDiscountCode,
  type DiscountCode,
  type DiscountCodeChanges,
  discountCodeRemoval,
  discountCodeUpdate,
  newDiscountCodeItem,
  readDiscountCode,
} from './discountCode.entity';
import { normalizeDiscountCode, usableNow } from './discounts';
import { paymentErrors } from './errors';
import { allPlans } from './plan.entity';

const CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());

/** A code as the staff see it (`id` = the code; times ISO). */
export const staffDiscountView = (d: DiscountCode) => ({
  id: d.code,
  code: d.code,
  title: d.title,
  percent: d.percent,
  validFrom: iso(d.validFrom),
  validUntil: iso(d.validUntil),
  maxUses: d.maxUses ?? null,
  perUserLimit: d.perUserLimit,
  planIds: d.planIds ?? null,
  advertised: d.advertised,
  active: d.active,
  uses: d.uses,
});
export type StaffDiscountView = ReturnType<typeof staffDiscountView>;

/** What the staff send (times epoch ms; null removes a limit). */
export interface DiscountInput {
  code: string;
  title: string;
  percent: number;
  validFrom?: number | null;
  validUntil?: number | null;
  maxUses?: number | null;
  perUserLimit?: number;
  planIds?: number[] | null;
  advertised?: boolean;
  active?: boolean;
}

async function checkRules(deps: Pick<Deps, 'db'>, d: Omit<DiscountInput, 'code'>): Promise<void> {
  if (d.validFrom != null && d.validUntil != null && d.validFrom >= d.validUntil) {
    throw commonErrors.validation('validUntil must be after validFrom', { validUntil: ['must be after validFrom'] });
  }
  if (d.planIds) {
    const known = new Set((await allPlans(deps.db)).map((p) => p.id));
    const unknown = d.planIds.filter((id) => !known.has(id));
    if (unknown.length)
      throw commonErrors.validation(`no plan has id ${unknown.join(', ')}`, { planIds: unknown.map((id) => `no plan ${id}`) });
  }
}

const defined = <T extends object>(o: T): T => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== null)) as T;

async function existing(deps: Pick<Deps, 'db'>, rawCode: string): Promise<DiscountCode> {
  const code = normalizeDiscountCode(rawCode);
  const found = CODE_PATTERN.test(code) ? await readDiscountCode(deps.db, code) : undefined;
  if (!found) throw paymentErrors.discountCodeNotFound();
  return found;
}

/** Every code, by code, optionally only active / advertised ones. */
export async function listDiscountCodes(
  deps: Pick<Deps, 'db'>,
  filter: { active?: boolean; advertised?: boolean } = {},
): Promise<StaffDiscountView[]> {
  return (await allDiscountCodes(deps.db))
    .filter(
      (d) =>
        (filter.active === undefined || d.active === filter.active) &&
        (filter.advertised === undefined || d.advertised === filter.advertised),
    )
    .map(staffDiscountView);
}

/** Code `code` (any case). Errors: `not_found`. */
export const getDiscountCodeForStaff = async (deps: Pick<Deps, 'db'>, code: string): Promise<StaffDiscountView> =>
  staffDiscountView(await existing(deps, code));

/** Creates a code on behalf of superuser `actor`. Errors: `validation_error`, `code_taken` (409). */
export async function createDiscountCode(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: DiscountInput,
  actor: string,
): Promise<StaffDiscountView> {
  const code = normalizeDiscountCode(input.code);
  if (!CODE_PATTERN.test(code)) throw commonErrors.validation('code must be 3-32 of A-Z 0-9 _ -', { code: ['3-32 of A-Z 0-9 _ -'] });
  await checkRules(deps, input);
  const discount: DiscountCode = defined({
    ...input,
    code,
    title: input.title.trim(),
    perUserLimit: input.perUserLimit ?? 1,
    advertised: input.advertised ?? false,
    active: input.active ?? true,
    uses: 0,
  }) as DiscountCode;
  try {
    await transact(deps.db, [newDiscountCodeItem(deps.db, discount), ...codeHistory(deps, actor, 'add', undefined, discount)]);
  } catch (error) {
    if (isConditionFailure(error)) throw paymentErrors.discountCodeTaken(code);
    throw error;
  }
  auditStaffAction(actor, 'add', 'discountcode', code);
  return staffDiscountView(discount);
}

/**
 * Changes code `code` (the fields given; null removes validFrom, validUntil, maxUses or planIds) on behalf of
 * `actor`, keeping the uses counted meanwhile. Errors: `not_found`, `validation_error`, `database_busy`.
 */
export async function updateDiscountCode(
  deps: Pick<Deps, 'db' | 'clock'>,
  rawCode: string,
  changes: Partial<Omit<DiscountInput, 'code'>>,
  actor: string,
): Promise<StaffDiscountView> {
  const { code } = await changeCode(deps, rawCode, actor, async (current) => {
    const merged = { ...staffDiscountView(current), validFrom: current.validFrom, validUntil: current.validUntil, ...changes };
    await checkRules(deps, merged);
    const removable = ['validFrom', 'validUntil', 'maxUses', 'planIds'] as const;
    const removed = removable.filter((f) => changes[f] === null && current[f] !== undefined);
    const set = defined({ ...changes, ...(changes.title === undefined ? {} : { title: changes.title.trim() }) }) as DiscountCodeChanges;
    return { set, removed };
  });
  auditStaffAction(actor, 'change', 'discountcode', code.code);
  return staffDiscountView(code);
}

/** The history entry items of `action` on a code by `actor` now (DESIGN §9): each changed field before and after. */
function codeHistory(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: string,
  action: HistoryAction,
  before?: DiscountCode,
  after?: DiscountCode,
): TxItem[] {
  const code = (after ?? before) as DiscountCode;
  const fields = (d: DiscountCode | undefined) => (d ? staffDiscountView(d) : undefined);
  return historyItems(deps.db, {
    at: deps.clock.now(),
    staff: actor,
    action,
    model: 'discountcode',
    objectId: code.code,
    objectRepr: `${code.code} (${code.title})`,
    changes: fieldChanges(fields(before), fields(after), { omit: ['id', 'uses'] }),
  });
}

/** What one change of a code sets and removes. */
interface CodeChange {
  set: DiscountCodeChanges;
  removed: readonly string[];
}

/**
 * Changes code `rawCode` as `decide` says from its current state, with its history entry, in one conditional write;
 * a lost race (another staff change) reads it again. A change that changes nothing writes nothing (`changed`
 * false). Errors: `not_found`, whatever `decide` raises, `database_busy`.
 */
export function changeCode(
  deps: Pick<Deps, 'db' | 'clock'>,
  rawCode: string,
  actor: string,
  decide: (current: DiscountCode) => Promise<CodeChange> | CodeChange,
): Promise<{ code: DiscountCode; changed: boolean }> {
  return retryOptimistic(
    async () => {
      const current = await existing(deps, rawCode);
      const { set, removed } = await decide(current);
      const differs = Object.fromEntries(
        Object.entries(set).filter(([field, value]) => JSON.stringify(value) !== JSON.stringify(current[field as keyof DiscountCode])),
      ) as DiscountCodeChanges;
      if (Object.keys(differs).length === 0 && removed.length === 0) return { code: current, changed: false };
      const after = changedDiscountCode(current, differs, removed);
      await transact(deps.db, [
        discountCodeUpdate(deps.db, current, differs, removed),
        ...codeHistory(deps, actor, 'change', current, after),
      ]);
      return { code: after, changed: true };
    },
    async () => {
      await existing(deps, rawCode); // gone meanwhile: not_found; else read it again
      return undefined;
    },
    { busy: paymentErrors.busy },
  );
}

/** Deletes unused code `code` on behalf of `actor`. Errors: `not_found`, `discount_code_used` (409). */
export async function deleteDiscountCode(deps: Pick<Deps, 'db' | 'clock'>, rawCode: string, actor: string): Promise<void> {
  const current = await existing(deps, rawCode);
  if (current.uses > 0) throw paymentErrors.discountCodeUsed();
  try {
    await transact(deps.db, [discountCodeRemoval(deps.db, current.code), ...codeHistory(deps, actor, 'delete', current, undefined)]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    throw (await readDiscountCode(deps.db, current.code)) ? paymentErrors.discountCodeUsed() : paymentErrors.discountCodeNotFound();
  }
  auditStaffAction(actor, 'delete', 'discountcode', current.code);
}

/** An offer as the staff see it: the advertised code as `GET /api/offers` shows it, and whether it is usable now. */
const staffOfferView = (d: DiscountCode, now: number) => ({
  id: d.code,
  code: d.code,
  title: d.title,
  percent: d.percent,
  validUntil: iso(d.validUntil),
  planIds: d.planIds ?? null,
  advertised: d.advertised,
  usableNow: usableNow(d, now),
});
export type StaffOfferView = ReturnType<typeof staffOfferView>;

/** Every advertised code, usable now or not, by code. */
export async function listOffersForStaff(deps: Pick<Deps, 'db' | 'clock'>): Promise<StaffOfferView[]> {
  const now = deps.clock.now();
  return (await allDiscountCodes(deps.db)).filter((d) => d.advertised).map((d) => staffOfferView(d, now));
}

/** The offer of code `code`. Errors: `not_found` (no such code, or not advertised). */
export async function getOfferForStaff(deps: Pick<Deps, 'db' | 'clock'>, code: string): Promise<StaffOfferView> {
  const found = await existing(deps, code);
  if (!found.advertised) throw commonErrors.notFound('Offer');
  return staffOfferView(found, deps.clock.now());
}

/** Changes the title or the advertising of code `code` on behalf of `actor`. Errors: `not_found`, `database_busy`. */
export async function updateOffer(
  deps: Pick<Deps, 'db' | 'clock'>,
  rawCode: string,
  changes: { title?: string; advertised?: boolean },
  actor: string,
): Promise<StaffOfferView> {
  const { code } = await changeCode(deps, rawCode, actor, () => ({
    set: defined({ title: changes.title?.trim(), advertised: changes.advertised }),
    removed: [],
  }));
  auditStaffAction(actor, 'change', 'offer', code.code);
  return staffOfferView(code, deps.clock.now());
}

/**
 * Turns code `rawCode`'s `active` (a discount code) or `advertised` (an offer) to `value` on behalf of `actor` (the
 * bulk actions; DESIGN §9): one conditional write with its history entry, nothing written when it is so already
 * (`changed` false). Errors: `not_found`, `database_busy`.
 */
export async function setCodeSwitch(
  deps: Pick<Deps, 'db' | 'clock'>,
  rawCode: string,
  field: 'active' | 'advertised',
  value: boolean,
  actor: string,
): Promise<{ changed: boolean }> {
  const { code, changed } = await changeCode(deps, rawCode, actor, () => ({ set: { [field]: value }, removed: [] }));
  if (changed) auditStaffAction(actor, 'change', field === 'active' ? 'discountcode' : 'offer', code.code);
  return { changed };
}
