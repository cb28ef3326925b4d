/**
 * Issue 23 point 4 in a real browser: a marketplace order's page in the staff panel shows the money in one place —
 * the period the marketplace sold, the purchase token's digest prefix (never the token), the renewal state and the
 * marketplace's last answer — and its payment events list what the marketplace answered. The learner's marketplace
 * subscription is bought, renewed and then refunded at the fake marketplace through the API, as the app would. An
 * in-app product refunded at the marketplace later shows its refund watch ended by the refund, with the answer.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import { getOrder, getPlan, renewDueMarketplaceSubscriptions, savePlan } from '@mathisland/core/subscriptions';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boughtAndPaidInApp, refundOnMarketplace, renewOnMarketplace, verifyPurchase } from '../support/marketplace';
import { DAY_MS, PLAN_30 } from '../support/payments';
import { call, type Session, signIn, startTestStack, type TestStack } from '../support/stack';
import { expectRtlPersian, faNumber, launchBrowser, openPage, screenshot, signedInContext } from './support';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const HOUR_MS = 3_600_000;
const password = `pw-${randomUUID()}`;

let stack: TestStack;
let browser: Browser;
let root: BrowserContext;
let learner: Session;
let firstOrderId: number;
let renewalId: number;
let digest: string;
let inappOrderId: number;
const IN_APP_PLAN = 61;

const status = async () => (await call(stack, 'GET', '/api/subscription/status', { token: learner.accessToken })).body;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ now: NOW }), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: 'root', password, isSuperuser: true });
  learner = await signIn(stack);
  // Bought in the app for two hours; the marketplace bills the next month; the status read sees it.
  const paid = await boughtAndPaidInApp(stack, learner, PLAN_30, { validUntil: NOW + 2 * HOUR_MS });
  expect((await verifyPurchase(stack, learner, paid.orderId, paid.purchaseToken)).status).toBe(200);
  await renewOnMarketplace(stack, paid.purchaseToken, NOW + 2 * HOUR_MS + 30 * DAY_MS);
  expect((await status()).expiresAt).toBe(new Date(NOW + 2 * HOUR_MS + 30 * DAY_MS).toISOString());
  // Then refunded at the marketplace: the next day's read ends it.
  await refundOnMarketplace(stack, paid.purchaseToken);
  stack.clock.set(NOW + 25 * HOUR_MS);
  learner = await signIn(stack, learner.phone);
  expect((await status()).status).toBe('expired');
  firstOrderId = paid.orderId;
  const first = await getOrder(stack.deps, firstOrderId);
  digest = first.purchaseTokenDigest as string;
  const invoices = (await call(stack, 'GET', '/api/payment/invoices', { token: learner.accessToken })).body.items;
  renewalId = invoices.find((i: any) => i.orderId !== firstOrderId).orderId;
  // An in-app product, refunded at the marketplace after its verification: the job's first refund check finds it.
  const plan = (await getPlan(stack.deps, PLAN_30))!;
  await savePlan(stack.deps.db, { ...plan, id: IN_APP_PLAN, marketplaceSku: 'mathisland_inapp_30d', marketplaceProductType: 'inapp' });
  const buyer = await signIn(stack);
  const inapp = await boughtAndPaidInApp(stack, buyer, IN_APP_PLAN);
  expect((await verifyPurchase(stack, buyer, inapp.orderId, inapp.purchaseToken)).status).toBe(200);
  await refundOnMarketplace(stack, inapp.purchaseToken);
  stack.clock.set(NOW + 50 * HOUR_MS);
  expect(await renewDueMarketplaceSubscriptions(stack.deps)).toMatchObject({ refunded: 1, failed: 0 });
  inappOrderId = inapp.orderId;
  root = await signedInContext(browser, stack.baseUrl, 'root', password);
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('a marketplace order in the staff panel', () => {
  it('shows the marketplace period, the token digest’s prefix and the last answer, and the answers among the events', async () => {
    const { page, errors, outside } = await openPage(root, stack.baseUrl);
    await page.goto(`/admin/orders/${renewalId}/show`);
    const section = page.getByTestId('order-marketplace');
    await section.getByText('خرید در فروشگاه').waitFor();
    await expectRtlPersian(page);
    await section.getByText(`${digest.slice(0, 12)}…`).waitFor();
    expect(await section.textContent()).not.toContain(digest.slice(12, 24));
    await section.getByText('اشتراک (تمدید خودکار)').waitFor();
    await section.getByText(/پایان‌یافته \(بازپرداخت یا حذف در فروشگاه/).waitFor();
    await section.getByText(`پیدا نشد (HTTP ${faNumber(404)})`, { exact: false }).waitFor();
    // Two periods paid; the current one is this renewal.
    await section.getByRole('link', { name: `#${faNumber(renewalId)}` }).waitFor();
    await page.getByText('فروشگاه', { exact: true }).first().waitFor(); // ended by the marketplace
    // The payment events: the marketplace's refund (404, in Persian digits) and the renewal's payment (200).
    const rows = page.locator('tbody tr');
    await rows
      .filter({ hasText: 'بازپرداخت شد' })
      .filter({ hasText: faNumber(404) })
      .waitFor();
    await rows.filter({ hasText: 'پرداخت شد' }).filter({ hasText: 'تمدید در فروشگاه' }).waitFor();
    await screenshot(page, 'order-marketplace', { fullPage: true });

    // The first order: its own period, the subscription's pointing at the renewal.
    await page.goto(`/admin/orders/${firstOrderId}/show`);
    await page
      .getByTestId('order-marketplace')
      .getByRole('link', { name: `#${faNumber(renewalId)}` })
      .waitFor();
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('shows an in-app product refunded at the marketplace: the watch ended by the refund, the answer, the refund row', async () => {
    const { page, errors, outside } = await openPage(root, stack.baseUrl);
    await page.goto(`/admin/orders/${inappOrderId}/show`);
    const section = page.getByTestId('order-marketplace');
    await section.getByText('خرید در فروشگاه').waitFor();
    await section.getByText(/پایان‌یافته \(بازپرداخت در فروشگاه, /).waitFor();
    await section.getByText(`بازپرداخت‌شده (HTTP ${faNumber(200)})`, { exact: false }).waitFor();
    await page.locator('tbody tr').filter({ hasText: 'بازپرداخت در فروشگاه (خرید درون‌برنامه‌ای)' }).waitFor();
    await screenshot(page, 'order-inapp-refunded', { fullPage: true });
    expect(errors).toEqual([]);
    expect(outside).toEqual([]);
  });

  it('lists the marketplace’s answers among all payment events', async () => {
    const { page } = await openPage(root, stack.baseUrl);
    await page.goto('/admin/payment-events');
    // The subscription's refund (404) and the in-app product's (200, purchaseState 1).
    const refunds = page.locator('tbody tr').filter({ hasText: 'بازپرداخت شد' });
    await refunds
      .filter({ hasText: faNumber(404) })
      .first()
      .waitFor();
    await refunds.filter({ hasText: 'بازپرداخت در فروشگاه (خرید درون‌برنامه‌ای)' }).first().waitFor();
  });
});
