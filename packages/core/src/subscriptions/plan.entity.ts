/**
 * Subscription plans and their marketplace SKU constraint (spec "Plan"; DESIGN §5, §8).
 *
 * | item            | pk          | sk                  | notes                                                |
 * |-----------------|-------------|---------------------|------------------------------------------------------|
 * | plan            | PLAN        | PLAN#<planId 6>     | one partition: there are a handful of plans          |
 * | marketplace SKU | SKU#<sku>   | SKU                 | unique constraint → `planId`, claimed in the plan's transaction |
 * | plan id counter | COUNTER     | plan                | `value`: the highest plan id ever given (db/counters.ts), moved in the new plan's transaction |
 *
 * Money is whole toman. The SKU is read only by the server and never appears in an app response. `hasOrders` is
 * set by the first purchase of the plan (in the order's creation transaction), so a plan that was ever ordered
 * cannot be deleted (orders snapshot it, and invoices and the staff name it); a staff change never writes it
 * ({@link planUpdate} sets only the fields it changes). A plan id is never given twice, not even after its plan was
 * deleted: discount codes and the staff history name plans by id (planAdmin.ts `createPlan`).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

const PLAN_PARTITION = 'PLAN';

export const planKey = (planId: number): Key => ({ pk: PLAN_PARTITION, sk: `PLAN#${pad(planId, 6)}` });
/** The counter (db/counters.ts) holding the highest plan id ever given. */
export const PLAN_ID_COUNTER = 'plan';
export const skuKey = (sku: string): Key => ({ pk: `SKU#${sku}`, sk: 'SKU' });

export const MarketplaceProductType = z.enum(['inapp', 'subscription']);
export type MarketplaceProductType = z.infer<typeof MarketplaceProductType>;

export const PlanItem = lazySchema(() =>
  z
    .object({
      id: z.number().int().positive(),
      title: z.string(),
      /** List price, toman. */
      price: z.number().int().nonnegative(),
      durationDays: z.number().int().positive(),
      /** Tutor questions per Tehran day while subscribed. */
      aiDailyQuota: z.number().int().nonnegative(),
      features: z.array(z.string()),
      badge: z.string().nullable(),
      popular: z.boolean(),
      onSale: z.boolean(),
      /** Marketplace product id; unique across plans; server-side only. */
      marketplaceSku: z.string().optional(),
      /**
       * How the SKU is sold in the marketplace: `subscription` (auto-renewing; the default) or `inapp` (one period per
       * purchase). Verification asks the marketplace's API of this type (spec Endpoints; DESIGN §8).
       */
      marketplaceProductType: MarketplaceProductType.optional(),
      /** Set by the plan's first order (see the module doc). */
      hasOrders: z.boolean().optional(),
    })
    .describe('plan'),
);
export type Plan = z.infer<typeof PlanItem>;

/** Every plan, on sale or not, by id. */
export const allPlans = (db: Db): Promise<Plan[]> => queryAll(db, { partition: PLAN_PARTITION }, PlanItem);

/** The plan `planId`, or undefined. */
export const readPlan = (db: Db, planId: number): Promise<Plan | undefined> => getItem(db, planKey(planId), PlanItem);

/**
 * The transaction items that keep SKUs unique when plan `planId` goes from SKU `from` to SKU `to` (either
 * undefined: none): the claim of a new SKU (condition: free, or already this plan's) and the release of the SKU it
 * dropped (condition: still this plan's); none when the SKU stays. The claim, when there is one, comes first.
 */
function skuMoves(db: Db, planId: number, from: string | undefined, to: string | undefined): TxItem[] {
  if (from === to) return [];
  const items: TxItem[] = [];
  if (to) {
    items.push(put(db, { ...skuKey(to), planId }, { condition: 'attribute_not_exists(pk) OR planId = :id', values: { ':id': planId } }));
  }
  if (from) items.push(remove(db, skuKey(from), { condition: 'planId = :id', values: { ':id': planId } }));
  return items;
}

/**
 * The transaction items that store `plan` whole over `previous` (the plan as read, or undefined for a new one) and
 * keep its SKU unique (seeds, tests, and a new plan: `create`, condition: no plan has its id): the plan (condition:
 * its SKU is still the one read; `hasOrders` as read is kept) and then {@link skuMoves}. Any failed condition means
 * another plan holds the SKU or the plan changed meanwhile. Staff changes use {@link planUpdate}, which writes only
 * what changed.
 */
export function planWrites(db: Db, plan: Plan, previous: Plan | undefined, options: { create?: boolean } = {}): TxItem[] {
  return [
    put(
      db,
      { ...planKey(plan.id), ...plan, ...(previous?.hasOrders ? { hasOrders: true } : {}) },
      options.create
        ? { condition: 'attribute_not_exists(pk)' }
        : previous?.marketplaceSku
          ? { condition: 'marketplaceSku = :old', values: { ':old': previous.marketplaceSku } }
          : { condition: 'attribute_not_exists(marketplaceSku)' },
    ),
    ...skuMoves(db, plan.id, previous?.marketplaceSku, plan.marketplaceSku),
  ];
}

/** What a staff change sets on a plan: any field but `id` and `hasOrders`; `marketplaceSku` null removes the SKU. */
export type PlanChanges = Partial<Omit<Plan, 'id' | 'hasOrders' | 'marketplaceSku'> & { marketplaceSku: string | null }>;

/**
 * The transaction items that apply `changes` (only the fields that differ from `before`, the plan as read) to plan
 * `before.id` in one `UpdateItem`, so whatever else changed meanwhile (another staff member's change of another
 * field, the first order's `hasOrders`) is kept, then {@link skuMoves} when the SKU changes. The update fails
 * (condition) when the plan is gone or any field it changes no longer holds its value in `before` (another change
 * won the race: read again), so the befores of its history entry are exactly what it replaced. A `null` before
 * (`badge`) is checked by type. Errors: throws when `changes` holds no change (the caller writes nothing then).
 */
export function planUpdate(db: Db, before: Plan, changes: PlanChanges): TxItem[] {
  const names: Record<string, string> = { '#pk': 'pk' };
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  const guards = ['attribute_exists(#pk)'];
  const fields = Object.entries(changes).filter(([, value]) => value !== undefined);
  for (const [i, [field, value]] of fields.entries()) {
    names[`#f${i}`] = field;
    const was = before[field as keyof Plan];
    if (was === undefined) guards.push(`attribute_not_exists(#f${i})`);
    else if (was === null) {
      values[`:b${i}`] = 'NULL';
      guards.push(`attribute_type(#f${i}, :b${i})`);
    } else {
      values[`:b${i}`] = was;
      guards.push(`#f${i} = :b${i}`);
    }
    if (field === 'marketplaceSku' && value === null) removes.push(`#f${i}`);
    else {
      values[`:v${i}`] = value;
      sets.push(`#f${i} = :v${i}`);
    }
  }
  if (!sets.length && !removes.length) throw new Error('planUpdate needs at least one change');
  const expression = [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : ''].join(' ').trim();
  const sku = changes.marketplaceSku === undefined ? before.marketplaceSku : (changes.marketplaceSku ?? undefined);
  return [
    update(db, planKey(before.id), expression, {
      condition: guards.join(' AND '),
      names,
      ...(Object.keys(values).length ? { values } : {}),
    }),
    ...skuMoves(db, before.id, before.marketplaceSku, sku),
  ];
}

/** The plan `before` after `changes` (what {@link planUpdate} stores; `hasOrders` as read). */
export function changedPlan(before: Plan, changes: PlanChanges): Plan {
  const after: Record<string, unknown> = { ...before };
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    if (field === 'marketplaceSku' && value === null) delete after[field];
    else after[field] = value;
  }
  return after as Plan;
}

/**
 * The transaction items that delete `plan` and release its SKU: the plan (condition: never ordered, SKU as
 * read) and its SKU item (condition: still this plan's).
 */
export function planDeletes(db: Db, plan: Plan): TxItem[] {
  const sku = plan.marketplaceSku
    ? { condition: 'attribute_not_exists(hasOrders) AND marketplaceSku = :old', values: { ':old': plan.marketplaceSku } }
    : { condition: 'attribute_not_exists(hasOrders) AND attribute_not_exists(marketplaceSku)' };
  const items = [remove(db, planKey(plan.id), { ...sku, condition: `attribute_exists(pk) AND ${sku.condition}` })];
  if (plan.marketplaceSku) items.push(remove(db, skuKey(plan.marketplaceSku), { condition: 'planId = :id', values: { ':id': plan.id } }));
  return items;
}

/**
 * The item of an order's creation transaction that marks `plan` as ordered, or none when it already is
 * (condition: the plan still exists).
 */
export const markPlanOrdered = (db: Db, plan: Plan): TxItem[] =>
  plan.hasOrders
    ? []
    : [update(db, planKey(plan.id), 'SET hasOrders = :true', { condition: 'attribute_exists(pk)', values: { ':true': true } })];
