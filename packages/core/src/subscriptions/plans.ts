/**
 * Subscription plans (spec "Plan"): title, price (toman), duration (days), aiDailyQuota (tutor questions per
 * Tehran day), features, badge, popular, onSale, and an optional marketplace SKU, unique across plans
 * (plan.entity.ts) and never shown to the app ({@link publicPlan}).
 */
import type { Db } from '../db/client';
import { isConditionFailure } from '../db/conditions';
import { transact } from '../db/transact';
import type { Deps } from '../deps';
import { commonErrors } from '../errors';
import { paymentErrors } from './errors';
import { allPlans, type Plan, planWrites, readPlan } from './plan.entity';

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

/** The plan `planId` (on sale or not), or undefined. */
export const getPlan = (deps: Pick<Deps, 'db'>, planId: number): Promise<Plan | undefined> => readPlan(deps.db, planId);

/** `GET /api/plans`: plans on sale (app shape) and the free tutor quota (spec "Plan"). */
export async function plansOnSale(deps: Deps): Promise<{ items: PublicPlan[]; freeAiDailyQuota: number }> {
  const plans = await allPlans(deps.db);
  return { items: plans.filter((p) => p.onSale).map(publicPlan), freeAiDailyQuota: deps.settings.ai.dailyQuotaFree };
}

/**
 * Creates or replaces `plan`, keeping its marketplace SKU unique: the SKU's constraint item is claimed in the
 * same transaction (and a replaced SKU's item released). Errors: `validation_error` on `price` (not whole
 * toman), on `marketplaceSku` when another plan holds the SKU.
 */
export async function savePlan(db: Db, plan: Plan): Promise<void> {
  if (!Number.isInteger(plan.price) || plan.price < 0)
    throw commonErrors.validation('price must be whole toman', { price: ['whole toman'] });
  const previous = await readPlan(db, plan.id);
  try {
    await transact(db, planWrites(db, plan, previous));
  } catch (error) {
    if (isConditionFailure(error)) {
      throw commonErrors.validation('Another plan has this marketplace SKU', { marketplaceSku: ['Another plan has this SKU'] });
    }
    throw error;
  }
}

/** The plan a purchase may buy. Errors: `validation_error` on `planId` when absent or not on sale. */
export async function planOnSale(deps: Deps, planId: number): Promise<Plan> {
  const plan = await readPlan(deps.db, planId);
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
