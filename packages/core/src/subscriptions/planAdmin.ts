/**
 * Staff editing of plans (DESIGN §9 plans CRUD; spec "Plan": marketplace_sku admin-edited and unique across
 * plans, features editable in admin). Rules, mirrored by the admin SPA's form (docs/admin-api.md "plans"):
 * title 1-100 characters; price whole toman 0-1 000 000 000; durationDays 1-3650; aiDailyQuota 0-1000; up to 20
 * features of 1-200 characters; badge 1-50 characters or null; marketplaceSku null or 1-100 of A-Z a-z 0-9 . _ -
 * (unique: another plan's SKU is 409 `sku_taken`); marketplaceProductType `subscription` (the default) or `inapp`
 * (docs/decisions.md "Marketplace": how the marketplace sells the SKU). A plan that was ever ordered cannot be deleted (409
 * `plan_has_orders`: take it off sale instead). Orders keep their snapshot whatever is edited here.
 *
 * A plan id is never given twice (discount codes' `planIds` and the staff history name plans by id), and a change
 * writes only the fields it changes, so it never undoes a concurrent one (docs/decisions.md "Plans with orders").
 */
import type { Db } from '../db/client';
import { failedItems, retryOptimistic } from '../db/conditions';
import { counterMove, readCounter } from '../db/counters';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { fieldChanges, type HistoryAction, historyItems, recordIdsOf } from '../history';
import { auditStaffAction } from '../log';
import { paymentErrors } from './errors';
import {
  allPlans,
  changedPlan,
  type MarketplaceProductType,
  PLAN_ID_COUNTER,
  type Plan,
  type PlanChanges,
  planDeletes,
  planUpdate,
  planWrites,
  readPlan,
} from './plan.entity';

/** A plan as the staff see and send it (the SKU included, null when none; the product type, `subscription` when unset). */
export type StaffPlan = Omit<Plan, 'marketplaceSku' | 'marketplaceProductType' | 'hasOrders'> & {
  marketplaceSku: string | null;
  marketplaceProductType: MarketplaceProductType;
  hasOrders: boolean;
};
/** What a new plan needs (its id is given by the service). */
export type PlanInput = Omit<StaffPlan, 'id' | 'hasOrders'>;

export const staffPlanView = ({ marketplaceSku, marketplaceProductType, hasOrders, ...plan }: Plan): StaffPlan => ({
  ...plan,
  marketplaceSku: marketplaceSku ?? null,
  marketplaceProductType: marketplaceProductType ?? 'subscription',
  hasOrders: hasOrders ?? false,
});

const toStored = (id: number, input: PlanInput): Plan => {
  const { marketplaceSku, ...rest } = input;
  return { ...rest, id, title: rest.title.trim(), ...(marketplaceSku ? { marketplaceSku } : {}) };
};

/** Every plan (on sale or not, or only those whose `onSale` is as given), by id. */
export async function listPlansForStaff(deps: Pick<Deps, 'db'>, filter: { onSale?: boolean } = {}): Promise<StaffPlan[]> {
  const plans = await allPlans(deps.db);
  return plans.filter((p) => filter.onSale === undefined || p.onSale === filter.onSale).map(staffPlanView);
}

async function existing(deps: Pick<Deps, 'db'>, planId: number): Promise<Plan> {
  const plan = await readPlan(deps.db, planId);
  if (!plan) throw paymentErrors.planNotFound();
  return plan;
}

/** Plan `planId`. Errors: `not_found`. */
export const getPlanForStaff = async (deps: Pick<Deps, 'db'>, planId: number): Promise<StaffPlan> =>
  staffPlanView(await existing(deps, planId));

/** The history entry items of `action` on a plan by `actor` now (DESIGN §9): each changed field before and after. */
function planHistory(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: string,
  action: HistoryAction,
  before: Plan | undefined,
  after: Plan | undefined,
): TxItem[] {
  const plan = (after ?? before) as Plan;
  const view = (p: Plan | undefined) => (p ? staffPlanView(p) : undefined);
  return historyItems(deps.db, {
    at: deps.clock.now(),
    staff: actor,
    action,
    model: 'plan',
    objectId: plan.id,
    objectRepr: plan.title,
    changes: fieldChanges(view(before), view(after), { omit: ['hasOrders'] }),
  });
}

/**
 * `sku_taken` for `sku` when `error` is a transaction whose item `claimAt` (the SKU's claim) failed its condition:
 * another plan holds the SKU; otherwise `error` itself (a lost race is retried by the caller).
 */
function skuTakenOr(error: unknown, sku: string | null | undefined, claimAt: number): unknown {
  return sku && failedItems(error).includes(claimAt) ? paymentErrors.skuTaken(sku) : error;
}

/**
 * The id of a new plan, one above the highest plan id ever given, and the transaction item that claims it on the
 * plan id counter (conditioned on the counter as read, so two creations never get one id: the loser reads again).
 * The highest id ever given is the counter's value; while the counter does not exist (a table from before it, and a
 * new table until its first staff-made plan) it is the highest id of the plans stored and of the plans the staff
 * history records as deleted (a deleted plan leaves only its `delete` entry; the plans are read first, so a plan
 * deleted meanwhile is in one read or the other). A plan stored above the counter by other means (seeds, tests) is
 * counted too.
 */
async function newPlanId(db: Db): Promise<{ id: number; claim: TxItem }> {
  const counter = await readCounter(db, PLAN_ID_COUNTER);
  const highestStored = Math.max(0, ...(await allPlans(db)).map((p) => p.id));
  const highestGiven =
    counter ?? Math.max(highestStored, ...(await recordIdsOf(db, 'plan', 'delete')).map(Number).filter((id) => Number.isSafeInteger(id)));
  const id = Math.max(highestGiven, highestStored) + 1;
  return { id, claim: counterMove(db, PLAN_ID_COUNTER, counter, id) };
}

/**
 * Creates a plan on behalf of `actor`, with an id no plan ever had ({@link newPlanId}), with its history entry.
 * Errors: `sku_taken` (409), `database_busy`.
 */
export async function createPlan(deps: Pick<Deps, 'db' | 'clock'>, input: PlanInput, actor: string): Promise<StaffPlan> {
  const plan = await retryOptimistic(
    async () => {
      const { id, claim } = await newPlanId(deps.db);
      const created = toStored(id, input);
      const writes = planWrites(deps.db, created, undefined, { create: true });
      try {
        await transact(deps.db, [...writes, claim, ...planHistory(deps, actor, 'add', undefined, created)]);
      } catch (error) {
        throw skuTakenOr(error, created.marketplaceSku, 1);
      }
      return created;
    },
    () => undefined, // another plan took the id: count again
    { busy: paymentErrors.busy },
  );
  auditStaffAction(actor, 'add', 'plan', plan.id);
  return staffPlanView(plan);
}

/** The fields of `changes` whose value differs from plan `before`'s, as stored (a title trimmed; SKU null: none). */
function differences(before: Plan, changes: Partial<PlanInput>): PlanChanges {
  const current = staffPlanView(before);
  const wanted: Partial<PlanInput> = { ...changes, ...(changes.title === undefined ? {} : { title: changes.title.trim() }) };
  return Object.fromEntries(
    Object.entries(wanted).filter(
      ([field, value]) => value !== undefined && JSON.stringify(value) !== JSON.stringify(current[field as keyof StaffPlan]),
    ),
  ) as PlanChanges;
}

/**
 * Changes plan `planId` (the fields given) on behalf of `actor`: only the fields that differ from the plan as read
 * are written, each conditioned on its value as read, with a history entry of exactly those fields, in one
 * transaction ({@link planUpdate}). A concurrent change of other fields, and the first order's `hasOrders`, are kept;
 * a concurrent change of a field this one changes makes it read the plan again and decide again. Nothing to change
 * writes nothing (no entry). Errors: `not_found`, `sku_taken` (409), `database_busy`.
 */
export async function updatePlan(
  deps: Pick<Deps, 'db' | 'clock'>,
  planId: number,
  changes: Partial<PlanInput>,
  actor: string,
): Promise<StaffPlan> {
  const { plan, changed } = await retryOptimistic(
    async () => {
      const before = await existing(deps, planId);
      const differs = differences(before, changes);
      if (Object.keys(differs).length === 0) return { plan: before, changed: false };
      const after = changedPlan(before, differs);
      try {
        await transact(deps.db, [...planUpdate(deps.db, before, differs), ...planHistory(deps, actor, 'change', before, after)]);
      } catch (error) {
        throw skuTakenOr(error, differs.marketplaceSku, 1);
      }
      return { plan: after, changed: true };
    },
    async () => {
      await existing(deps, planId); // gone meanwhile: not_found; else read it again
      return undefined;
    },
    { busy: paymentErrors.busy },
  );
  if (changed) auditStaffAction(actor, 'change', 'plan', planId);
  return staffPlanView(plan);
}

/**
 * Deletes plan `planId` and frees its SKU on behalf of `actor`. Its id is never given again: its history entry
 * records it, and when the plan id counter exists but is below it (a plan stored by other means) the counter is
 * moved up to it in the same transaction. Errors: `not_found`, `plan_has_orders` (409), `database_busy`.
 */
export async function deletePlan(deps: Pick<Deps, 'db' | 'clock'>, planId: number, actor: string): Promise<void> {
  await retryOptimistic(
    async () => {
      const plan = await existing(deps, planId);
      if (plan.hasOrders) throw paymentErrors.planHasOrders();
      const counter = await readCounter(deps.db, PLAN_ID_COUNTER);
      const advance = counter !== undefined && counter < planId ? [counterMove(deps.db, PLAN_ID_COUNTER, counter, planId)] : [];
      await transact(deps.db, [...planDeletes(deps.db, plan), ...advance, ...planHistory(deps, actor, 'delete', plan, undefined)]);
    },
    () => undefined, // ordered, changed or gone meanwhile, or the counter moved: read it again
    { busy: paymentErrors.busy },
  );
  auditStaffAction(actor, 'delete', 'plan', planId);
}
