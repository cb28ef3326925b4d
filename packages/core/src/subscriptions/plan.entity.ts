/**
 * Subscription plans and their marketplace SKU constraint (spec "Plan"; DESIGN §5, §8).
 *
 * | item            | pk          | sk                  | notes                                                |
 * |-----------------|-------------|---------------------|------------------------------------------------------|
 * | plan            | PLAN        | PLAN#<planId 6>     | one partition: there are a handful of plans          |
 * | marketplace SKU | SKU#<sku>   | SKU                 | unique constraint → `planId`, claimed in the plan's transaction |
 *
 * Money is whole toman. The SKU is read only by the server and never appears in an app response. `hasOrders` is
 * set by the first purchase of the plan (in the order's creation transaction), so a plan that was ever ordered
 * cannot be deleted (orders snapshot it, and invoices and the staff name it).
 */
import * as z from 'zod';
import type { Db } from '../db/client';
import { getItem, queryAll } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, remove, type TxItem, update } from '../db/transact';
import { lazySchema } from '../lazySchema';

const PLAN_PARTITION = 'PLAN';

export const planKey = (planId: number): Key => ({ pk: PLAN_PARTITION, sk: `PLAN#${pad(planId, 6)}` });
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
 * The transaction items that store `plan` over `previous` (the plan as read, or undefined for a new one) and
 * keep its SKU unique: the plan (condition: its SKU is still the one read), the claim of a new SKU
 * (condition: free, or already this plan's) and the release of the SKU it dropped (condition: still this
 * plan's). Any failed condition means another plan holds the SKU or the plan changed meanwhile.
 */
export function planWrites(db: Db, plan: Plan, previous: Plan | undefined, options: { create?: boolean } = {}): TxItem[] {
  const items: TxItem[] = [
    put(
      db,
      { ...planKey(plan.id), ...plan, ...(previous?.hasOrders ? { hasOrders: true } : {}) },
      options.create
        ? { condition: 'attribute_not_exists(pk)' }
        : previous?.marketplaceSku
          ? { condition: 'marketplaceSku = :old', values: { ':old': previous.marketplaceSku } }
          : { condition: 'attribute_not_exists(marketplaceSku)' },
    ),
  ];
  if (plan.marketplaceSku && plan.marketplaceSku !== previous?.marketplaceSku) {
    items.push(
      put(
        db,
        { ...skuKey(plan.marketplaceSku), planId: plan.id },
        { condition: 'attribute_not_exists(pk) OR planId = :id', values: { ':id': plan.id } },
      ),
    );
  }
  if (previous?.marketplaceSku && previous.marketplaceSku !== plan.marketplaceSku) {
    items.push(remove(db, skuKey(previous.marketplaceSku), { condition: 'planId = :id', values: { ':id': plan.id } }));
  }
  return items;
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
