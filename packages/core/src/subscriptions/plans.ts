/**
 * Subscription plans (spec "Plan"): title, price (toman), duration (days), aiDailyQuota (tutor questions per
 * Tehran day), features, badge, popular, onSale, and an optional marketplace SKU.
 *
 * All plans live in one partition (`PLAN`; there are a handful). The marketplace SKU is unique across plans
 * through a constraint item `SKU#<sku>` written in the plan's own transaction; it is read only by the server
 * and never appears in an app response ({@link publicPlan}).
 */
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { keys } from '../db/keys';
import { put, remove, type TxItem, transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { paymentErrors } from './errors';

export interface Plan {
  id: number;
  title: string;
  /** List price, toman. */
  price: number;
  durationDays: number;
  /** Tutor questions per Tehran day while subscribed. */
  aiDailyQuota: number;
  features: string[];
  badge: string | null;
  popular: boolean;
  onSale: boolean;
  /** Marketplace product id; unique; server-side only. */
  marketplaceSku?: string;
}

/** A plan as the app sees it (DESIGN §3 plan shape): no SKU, no onSale (only plans on sale are offered). */
export type PublicPlan = Omit<Plan, 'onSale' | 'marketplaceSku'>;

export const publicPlan = (plan: Plan): PublicPlan => ({
  id: plan.id,
  title: plan.title,
  price: plan.price,
  durationDays: plan.durationDays,
  aiDailyQuota: plan.aiDailyQuota,
  features: plan.features,
  badge: plan.badge,
  popular: plan.popular,
});

const fromItem = (item: Record<string, unknown>): Plan => {
  const { pk: _pk, sk: _sk, ...plan } = item;
  return plan as unknown as Plan;
};

/** Every plan, on sale or not, by id. */
export async function listPlans(deps: Deps): Promise<Plan[]> {
  const result = await deps.db.doc.send(
    new QueryCommand({
      TableName: deps.db.tableName,
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.planPartition },
    }),
  );
  return (result.Items ?? []).map(fromItem);
}

async function readPlan(db: Db, planId: number): Promise<Plan | undefined> {
  const result = await db.doc.send(new GetCommand({ TableName: db.tableName, Key: keys.plan(planId), ConsistentRead: true }));
  return result.Item ? fromItem(result.Item) : undefined;
}

export const getPlan = (deps: Deps, planId: number): Promise<Plan | undefined> => readPlan(deps.db, planId);

/** `GET /api/plans`: plans on sale (app shape) and the free tutor quota (spec "Plan"). */
export async function plansOnSale(deps: Deps): Promise<{ items: PublicPlan[]; freeAiDailyQuota: number }> {
  const plans = await listPlans(deps);
  return { items: plans.filter((p) => p.onSale).map(publicPlan), freeAiDailyQuota: deps.settings.ai.dailyQuotaFree };
}

/**
 * Creates or replaces `plan`, keeping its marketplace SKU unique: the SKU's constraint item is claimed in the
 * same transaction (and a replaced SKU's item released). Errors: `validation_error` on `marketplaceSku` when
 * another plan holds the SKU.
 */
export async function savePlan(db: Db, plan: Plan): Promise<void> {
  if (!Number.isInteger(plan.price) || plan.price < 0)
    throw commonErrors.validation('price must be whole toman', { price: ['whole toman'] });
  const previous = await readPlan(db, plan.id);
  const items: TxItem[] = [
    put(
      db,
      { ...keys.plan(plan.id), ...plan },
      previous?.marketplaceSku
        ? { condition: 'marketplaceSku = :old', values: { ':old': previous.marketplaceSku } }
        : { condition: 'attribute_not_exists(marketplaceSku)' },
    ),
  ];
  if (plan.marketplaceSku && plan.marketplaceSku !== previous?.marketplaceSku) {
    items.push(
      put(
        db,
        { ...keys.marketplaceSku(plan.marketplaceSku), planId: plan.id },
        { condition: 'attribute_not_exists(pk) OR planId = :id', values: { ':id': plan.id } },
      ),
    );
  }
  if (previous?.marketplaceSku && previous.marketplaceSku !== plan.marketplaceSku) {
    items.push(remove(db, keys.marketplaceSku(previous.marketplaceSku), { condition: 'planId = :id', values: { ':id': plan.id } }));
  }
  try {
    await transact(db, items);
  } catch (error) {
    if (isConditionFailure(error)) {
      throw commonErrors.validation('Another plan has this marketplace SKU', { marketplaceSku: ['Another plan has this SKU'] });
    }
    throw error;
  }
}

/** The plan a purchase may buy. Errors: `validation_error` on `planId` when absent or not on sale. */
export async function planOnSale(deps: Deps, planId: number): Promise<Plan> {
  const plan = await getPlan(deps, planId);
  if (!plan?.onSale) throw paymentErrors.planNotOnSale();
  return plan;
}

/**
 * The seeded plans (spec "Plan": one month, 90 days, 180 days; spec Limits: every plan 4 tutor questions a
 * day). Prices are toman. Written by migration `0002-plans`.
 */
export const seedPlans: readonly Plan[] = [
  {
    id: 1,
    title: 'اشتراک یک‌ماهه',
    price: 149_000,
    durationDays: 30,
    aiDailyQuota: 4,
    features: ['همهٔ جزیره‌ها و درس‌ها', 'روزی ۴ سؤال از پی (دستیار ریاضی)', 'گزارش هفتگی'],
    badge: null,
    popular: false,
    onSale: true,
    marketplaceSku: 'mathisland_sub_1m',
  },
  {
    id: 2,
    title: 'اشتراک سه‌ماهه',
    price: 379_000,
    durationDays: 90,
    aiDailyQuota: 4,
    features: ['همهٔ جزیره‌ها و درس‌ها', 'روزی ۴ سؤال از پی (دستیار ریاضی)', 'گزارش هفتگی', '۱۵٪ ارزان‌تر از ماهانه'],
    badge: 'پرفروش',
    popular: true,
    onSale: true,
    marketplaceSku: 'mathisland_sub_3m',
  },
  {
    id: 3,
    title: 'اشتراک شش‌ماهه',
    price: 649_000,
    durationDays: 180,
    aiDailyQuota: 4,
    features: ['همهٔ جزیره‌ها و درس‌ها', 'روزی ۴ سؤال از پی (دستیار ریاضی)', 'گزارش هفتگی', '۲۷٪ ارزان‌تر از ماهانه'],
    badge: 'به‌صرفه‌ترین',
    popular: false,
    onSale: true,
    marketplaceSku: 'mathisland_sub_6m',
  },
];
