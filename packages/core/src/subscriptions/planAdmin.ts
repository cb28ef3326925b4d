/**
 * Staff editing of plans (DESIGN §9 plans CRUD; spec "Plan": marketplace_sku admin-edited and unique across
 * plans, features editable in admin). Rules, mirrored by the admin SPA's form (docs/admin-api.md "plans"):
 * title 1-100 characters; price whole toman 0-1 000 000 000; durationDays 1-3650; aiDailyQuota 0-1000; up to 20
 * features of 1-200 characters; badge 1-50 characters or null; marketplaceSku null or 1-100 of A-Z a-z 0-9 . _ -
 * (unique: another plan's SKU is 409 `sku_taken`); marketplaceProductType `subscription` (the default) or `inapp`
 * (docs/decisions.md "Marketplace": how the marketplace sells the SKU). A plan that was ever ordered cannot be deleted (409
 * `plan_has_orders`: take it off sale instead). Orders keep their snapshot whatever is edited here.
 */
import { failedItems, isConditionFailure, retryOptimistic } from '../db/conditions';
import { type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { fieldChanges, type HistoryAction, historyItems } from '../history';
import { auditStaffAction } from '../log';
import { paymentErrors } from './errors';
import { allPlans, type MarketplaceProductType, type Plan, planDeletes, planWrites, readPlan } from './plan.entity';

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
 * Writes `plan` over `previous` (or as new) with its history entry; a failed SKU claim is `sku_taken`, any other
 * lost condition is retried by the caller.
 */
async function write(deps: Pick<Deps, 'db' | 'clock'>, plan: Plan, previous: Plan | undefined, actor: string): Promise<void> {
  const items = [
    ...planWrites(deps.db, plan, previous, { create: previous === undefined }),
    ...planHistory(deps, actor, previous ? 'change' : 'add', previous, plan),
  ];
  try {
    await transact(deps.db, items);
  } catch (error) {
    if (plan.marketplaceSku && plan.marketplaceSku !== previous?.marketplaceSku && failedItems(error).includes(1)) {
      throw paymentErrors.skuTaken(plan.marketplaceSku);
    }
    throw error;
  }
}

/** Creates a plan with the next free id on behalf of `actor`. Errors: `sku_taken` (409), `database_busy`. */
export async function createPlan(deps: Pick<Deps, 'db' | 'clock'>, input: PlanInput, actor: string): Promise<StaffPlan> {
  const plan = await retryOptimistic(
    async () => {
      const id = Math.max(0, ...(await allPlans(deps.db)).map((p) => p.id)) + 1;
      const created = toStored(id, input);
      await write(deps, created, undefined, actor);
      return created;
    },
    () => undefined, // another plan took the id: count again
    { busy: paymentErrors.busy },
  );
  auditStaffAction(actor, 'add', 'plan', plan.id);
  return staffPlanView(plan);
}

/** Changes plan `planId` (fields given) on behalf of `actor`. Errors: `not_found`, `sku_taken` (409), `database_busy`. */
export async function updatePlan(
  deps: Pick<Deps, 'db' | 'clock'>,
  planId: number,
  changes: Partial<PlanInput>,
  actor: string,
): Promise<StaffPlan> {
  const plan = await retryOptimistic(
    async () => {
      const previous = await existing(deps, planId);
      const { marketplaceSku: _old, hasOrders: _ordered, ...kept } = staffPlanView(previous);
      const sku = changes.marketplaceSku === undefined ? previous.marketplaceSku : changes.marketplaceSku;
      const next = toStored(planId, { ...kept, ...changes, marketplaceSku: sku ?? null });
      await write(deps, next, previous, actor);
      return { ...next, ...(previous.hasOrders ? { hasOrders: true } : {}) };
    },
    () => undefined, // the plan changed meanwhile: read it again
    { busy: paymentErrors.busy },
  );
  auditStaffAction(actor, 'change', 'plan', planId);
  return staffPlanView(plan);
}

/** Deletes plan `planId` and frees its SKU on behalf of `actor`. Errors: `not_found`, `plan_has_orders` (409). */
export async function deletePlan(deps: Pick<Deps, 'db' | 'clock'>, planId: number, actor: string): Promise<void> {
  const plan = await existing(deps, planId);
  if (plan.hasOrders) throw paymentErrors.planHasOrders();
  try {
    await transact(deps.db, [...planDeletes(deps.db, plan), ...planHistory(deps, actor, 'delete', plan, undefined)]);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    const now = await readPlan(deps.db, planId);
    if (!now) throw paymentErrors.planNotFound();
    if (now.hasOrders) throw paymentErrors.planHasOrders();
    throw paymentErrors.busy();
  }
  auditStaffAction(actor, 'delete', 'plan', planId);
}
