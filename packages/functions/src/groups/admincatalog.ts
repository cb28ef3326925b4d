/**
 * Endpoint group `admincatalog`: plans, discount codes and offers for the staff (DESIGN §9; docs/admin-api.md).
 * Plans: `*_plan`; a marketplaceSku another plan holds is 409 `sku_taken`; a plan with orders cannot be deleted.
 * Discount codes: `view_discountcode`, `delete_discountcode`; adding and changing one is for superusers (spec
 * Authentication 6). Offers (advertised codes): `view_offer`, `change_offer`. The body rules below are the ones
 * the admin SPA's forms mirror.
 */
import { lazySchema } from '@mathisland/core';
import {
  createDiscountCode,
  createPlan,
  deleteDiscountCode,
  deletePlan,
  getDiscountCodeForStaff,
  getOfferForStaff,
  getPlanForStaff,
  listDiscountCodes,
  listOffersForStaff,
  listPlansForStaff,
  MarketplaceProductType,
  updateDiscountCode,
  updateOffer,
  updatePlan,
} from '@mathisland/core/subscriptions';
import * as z from 'zod';
import { admincatalogRoutes } from '../../../../infra/routes/admincatalog';
import { codesFilters, offersFilters, plansFilters, SEARCHED, wholeRows } from '../lib/adminLists';
import { IsoTime, listQuery, pathParam, wholeList } from '../lib/adminQuery';
import { defineGroup } from '../lib/group';
import { HttpResponse } from '../lib/http';
import { created, json, noContent } from '../lib/responses';
import { type AdminInput, route } from '../lib/route';
import { adminPage, Id, IsoTime as IsoTimeOut, Plan, responseShape } from '../lib/shapes';

const text = (max: number) => z.string().trim().min(1, 'must not be blank').max(max);
const whole = (min: number, max: number) => z.number().int().min(min).max(max);

/** A plan's editable fields (made when a plan's body schema is first used). */
const planFields = () => ({
  title: text(100),
  price: whole(0, 1_000_000_000),
  durationDays: whole(1, 3650),
  aiDailyQuota: whole(0, 1000),
  features: z.array(text(200)).max(20),
  badge: text(50).nullable(),
  popular: z.boolean(),
  onSale: z.boolean(),
  marketplaceSku: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,100}$/, '1-100 of A-Z a-z 0-9 . _ -')
    .nullable(),
  marketplaceProductType: MarketplaceProductType,
});
const NewPlan = lazySchema(() => {
  const fields = planFields();
  return z.strictObject({
    ...fields,
    features: fields.features.default([]),
    badge: fields.badge.default(null),
    popular: fields.popular.default(false),
    onSale: fields.onSale.default(true),
    marketplaceSku: fields.marketplaceSku.default(null),
    marketplaceProductType: fields.marketplaceProductType.default('subscription'),
  });
});
const PlanChanges = lazySchema(() => z.strictObject(planFields()).partial());

/** A discount code's editable fields (made when a code's body schema is first used). */
const codeFields = () => ({
  title: text(100),
  percent: whole(1, 100),
  validFrom: IsoTime.nullable(),
  validUntil: IsoTime.nullable(),
  maxUses: whole(1, 100_000_000).nullable(),
  perUserLimit: whole(1, 1000),
  /** Empty or null: every plan. */
  planIds: z
    .array(z.number().int().positive())
    .max(50)
    .nullable()
    .transform((ids) => (ids?.length ? ids : null)),
  advertised: z.boolean(),
  active: z.boolean(),
});
const NewCode = lazySchema(() =>
  z.strictObject({ code: z.string().regex(/^[A-Za-z0-9_-]{3,32}$/, '3-32 of A-Z 0-9 _ -'), ...codeFields() }).partial({
    validFrom: true,
    validUntil: true,
    maxUses: true,
    perUserLimit: true,
    planIds: true,
    advertised: true,
    active: true,
  }),
);
const CodeChanges = lazySchema(() => z.strictObject(codeFields()).partial());
const OfferChanges = lazySchema(() => z.strictObject({ title: text(100), advertised: z.boolean() }).partial());

const PlansQuery = listQuery(plansFilters);
const CodesQuery = listQuery(codesFilters);
const OffersQuery = listQuery(offersFilters);
const NoQuery = z.strictObject({});

type Input<B = undefined> = AdminInput<B, unknown>;

const StaffPlan = responseShape(() =>
  Plan.unwrap()
    .extend({
      onSale: z.boolean(),
      marketplaceSku: z.string().nullable(),
      marketplaceProductType: MarketplaceProductType.meta({
        description: 'How the marketplace sells the SKU; orders snapshot it at purchase (`subscription` when never set)',
      }),
      hasOrders: z.boolean().meta({ description: 'A plan with orders cannot be deleted' }),
    })
    .meta({ id: 'StaffPlan' }),
);
const DiscountCode = responseShape(() =>
  z
    .object({
      id: z.string().meta({ description: 'The code' }),
      code: z.string(),
      title: z.string(),
      percent: z.number().int().min(1).max(100),
      validFrom: IsoTimeOut.nullable(),
      validUntil: IsoTimeOut.nullable(),
      maxUses: z.number().int().nullable(),
      perUserLimit: z.number().int(),
      planIds: z.array(Id).nullable().meta({ description: 'null: every plan' }),
      advertised: z.boolean(),
      active: z.boolean(),
      uses: z.number().int().min(0),
    })
    .meta({ id: 'DiscountCode' }),
);
const Offer = responseShape(() =>
  z
    .object({
      id: z.string(),
      code: z.string(),
      title: z.string(),
      percent: z.number().int().min(1).max(100),
      validUntil: IsoTimeOut.nullable(),
      planIds: z.array(Id).nullable(),
      advertised: z.boolean(),
      usableNow: z.boolean(),
    })
    .meta({ id: 'StaffOffer' }),
);
const planNotFound = { not_found: 'No such plan.' };
const codeNotFound = { not_found: 'No such discount code.' };
const skuTaken = { sku_taken: 'Another plan holds this marketplaceSku.' };
const code = (input: Input<unknown>) => pathParam(input.event, 'code');

const plans = async ({ deps, query }: AdminInput<undefined, z.infer<typeof PlansQuery>>) =>
  wholeList(wholeRows(await listPlansForStaff(deps, query), query, SEARCHED.plans), query);
const plan = async ({ deps, id }: Input) => getPlanForStaff(deps, id);
const planCreate = async ({ deps, body, staff }: Input<z.infer<typeof NewPlan>>) => createPlan(deps, body, staff.username);
const planUpdate = async ({ deps, id, body, staff }: Input<z.infer<typeof PlanChanges>>) => updatePlan(deps, id, body, staff.username);
async function planDelete({ deps, id, staff }: Input) {
  await deletePlan(deps, id, staff.username);
  return new HttpResponse(204);
}

const codes = async ({ deps, query }: AdminInput<undefined, z.infer<typeof CodesQuery>>) =>
  wholeList(wholeRows(await listDiscountCodes(deps, query), query, SEARCHED.codes), query);
const codeRead = async (input: Input) => getDiscountCodeForStaff(input.deps, code(input));
const codeCreate = async ({ deps, body, staff }: Input<z.infer<typeof NewCode>>) => createDiscountCode(deps, body, staff.username);
const codeUpdate = async (input: Input<z.infer<typeof CodeChanges>>) =>
  updateDiscountCode(input.deps, code(input), input.body, input.staff.username);
async function codeDelete(input: Input) {
  await deleteDiscountCode(input.deps, code(input), input.staff.username);
  return new HttpResponse(204);
}

const offers = async ({ deps, query }: AdminInput<undefined, z.infer<typeof OffersQuery>>) =>
  wholeList(wholeRows(await listOffersForStaff(deps), query, SEARCHED.offers), query);
const offerRead = async (input: Input) => getOfferForStaff(input.deps, code(input));
const offerUpdate = async (input: Input<z.infer<typeof OfferChanges>>) =>
  updateOffer(input.deps, code(input), input.body, input.staff.username);

export const { handler, createHandler, routes } = defineGroup(admincatalogRoutes, {
  'GET /api/admin/plans': route.admin({ permission: 'view_plan', query: PlansQuery, responses: { 200: adminPage(StaffPlan) }, run: plans }),
  'POST /api/admin/plans': route.admin({
    permission: 'add_plan',
    body: NewPlan,
    ...created(StaffPlan, 'The new plan'),
    errors: skuTaken,
    run: planCreate,
  }),
  'GET /api/admin/plans/{id}': route.admin({
    permission: 'view_plan',
    query: NoQuery,
    responses: { 200: StaffPlan },
    errors: planNotFound,
    run: plan,
  }),
  'PATCH /api/admin/plans/{id}': route.admin({
    permission: 'change_plan',
    body: PlanChanges,
    responses: { 200: json(StaffPlan, 'The changed plan') },
    errors: { ...planNotFound, ...skuTaken },
    run: planUpdate,
  }),
  'DELETE /api/admin/plans/{id}': route.admin({
    permission: 'delete_plan',
    responses: { 204: noContent('Deleted') },
    errors: { ...planNotFound, plan_has_orders: 'The plan has orders (take it off sale instead).' },
    run: planDelete,
  }),
  'GET /api/admin/discount-codes': route.admin({
    permission: 'view_discountcode',
    query: CodesQuery,
    responses: { 200: adminPage(DiscountCode) },
    run: codes,
  }),
  'POST /api/admin/discount-codes': route.admin({
    permission: 'add_discountcode',
    body: NewCode,
    description: '`validFrom`/`validUntil`: ISO 8601 with an offset, or a day `YYYY-MM-DD` (the start of that Tehran day).',
    ...created(DiscountCode, 'The new code'),
    errors: { code_taken: 'The code exists already.' },
    run: codeCreate,
  }),
  'GET /api/admin/discount-codes/{code}': route.admin({
    permission: 'view_discountcode',
    query: NoQuery,
    responses: { 200: DiscountCode },
    errors: codeNotFound,
    run: codeRead,
  }),
  'PATCH /api/admin/discount-codes/{code}': route.admin({
    permission: 'change_discountcode',
    body: CodeChanges,
    responses: { 200: json(DiscountCode, 'The changed code') },
    errors: codeNotFound,
    run: codeUpdate,
  }),
  'DELETE /api/admin/discount-codes/{code}': route.admin({
    permission: 'delete_discountcode',
    responses: { 204: noContent('Deleted') },
    errors: { ...codeNotFound, discount_code_used: 'The code was used (deactivate it instead).' },
    run: codeDelete,
  }),
  'GET /api/admin/offers': route.admin({ permission: 'view_offer', query: OffersQuery, responses: { 200: adminPage(Offer) }, run: offers }),
  'GET /api/admin/offers/{code}': route.admin({
    permission: 'view_offer',
    query: NoQuery,
    responses: { 200: Offer },
    errors: codeNotFound,
    run: offerRead,
  }),
  'PATCH /api/admin/offers/{code}': route.admin({
    permission: 'change_offer',
    body: OfferChanges,
    responses: { 200: json(Offer, 'The changed offer') },
    errors: codeNotFound,
    run: offerUpdate,
  }),
});
