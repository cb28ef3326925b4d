/**
 * The staff panel in a real browser (issue 11 part 5), the jobs the issue names, against one local stack for the
 * file: a superuser signs in, reads today's figures, finds a learner by publicId, edits a plan's SKU and product
 * type (a SKU another plan holds is refused on screen), refunds a paid order through the confirmation page (days
 * and commission shown before, days taken back after), cancels a pending one; a staff member with `view_order`
 * only sees the refund refused. The superuser's and the viewer's contexts are signed in once; each test opens a
 * page in them.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import { getPlanForStaff } from '@mathisland/core/subscriptions';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buyAndPay, PLAN_30, PLAN_90, purchase } from '../support/payments';
import { call, type Session, signIn, startTestStack, type TestStack } from '../support/stack';
import {
  expectRtlPersian,
  faDigits,
  faNumber,
  launchBrowser,
  newPanelPage,
  openPage,
  type PanelPage,
  screenshot,
  signedInContext,
  signInOnPage,
} from './support';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const password = `pw-${randomUUID()}`;
const superuser = 'panel-admin';
const viewer = 'panel-viewer';

let stack: TestStack;
let browser: Browser;
let admin: BrowserContext;
let viewing: BrowserContext;
let learner: Session & { user: { publicId: string } };
let paidOrder: number;
let pendingOrder: number;
const opened: PanelPage[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ now: NOW }), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: superuser, password, isSuperuser: true });
  await createStaff(stack.deps.db, stack.clock, { username: viewer, password, isSuperuser: false, permissions: ['view_order'] });
  learner = (await signIn(stack)) as typeof learner;
  paidOrder = (await buyAndPay(stack, learner, PLAN_90)).orderId;
  pendingOrder = (await purchase(stack, learner, { planId: PLAN_30, paymentMethod: 'gateway' })).body.orderId;
  [admin, viewing] = await Promise.all([
    signedInContext(browser, stack.baseUrl, superuser, password),
    signedInContext(browser, stack.baseUrl, viewer, password),
  ]);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A page of `context` (the superuser's by default), closed after the test. */
async function pageOf(context: BrowserContext = admin): Promise<PanelPage> {
  const p = await openPage(context, stack.baseUrl);
  opened.push(p);
  return p;
}

describe('signing in and the dashboard', () => {
  it('shows the login page in Persian, right to left, refuses a wrong password on screen, and signs in', async () => {
    const p = await newPanelPage(browser, stack.baseUrl);
    opened.push(p);
    const { page, errors } = p;
    await page.goto('/admin/orders');
    await page.waitForURL(/\/admin\/login$/);
    await expectRtlPersian(page);
    await expect.poll(() => page.locator('button[type="submit"]').textContent()).toBe('ورود');
    await screenshot(page, 'login');
    await page.locator('input[name="username"]').fill(superuser);
    await page.locator('input[name="password"]').fill('not-the-password');
    await page.locator('button[type="submit"]').click();
    await expect.poll(() => page.getByText('نام کاربری یا گذرواژه درست نیست').count()).toBeGreaterThan(0);
    expect(page.url()).toMatch(/\/admin\/login$/);
    await signInOnPage(page, superuser, password);
    await page.getByText(`خوش آمدید، ${superuser}`).waitFor();
    expect(errors).toEqual([]);
    await p.context.close();
  });

  it("shows today's sign-ins, new users, orders and revenue right to left, with no outside request, and switches to English", async () => {
    const { page, outside, errors } = await pageOf();
    await page.goto('/admin/');
    await expectRtlPersian(page);
    // The learner of beforeAll signed in, ordered twice and paid once today (Tehran's day of NOW).
    const figure = (key: string) => page.getByTestId(`dashboard-${key}`).textContent();
    await expect.poll(() => figure('revenue')).toContain(`${faNumber(379_000)} تومان`);
    expect(await figure('signIns')).toContain(faNumber(1));
    expect(await figure('newUsers')).toContain(faNumber(1));
    expect(await figure('orders')).toContain(faNumber(2));
    expect(await figure('paidOrders')).toContain(faNumber(1));
    expect(await page.getByTestId('dashboard-day').textContent()).toBe('امروز، ۲۹ آبان ۱۴۰۵');
    // The menu sits on the right in a right-to-left page, in Vazirmatn.
    const box = await page.getByRole('menuitem', { name: 'سفارش‌ها' }).boundingBox();
    expect(box!.x).toBeGreaterThan(640);
    expect(await page.evaluate(() => getComputedStyle(document.body).fontFamily)).toContain('Vazirmatn');
    expect(await page.evaluate(() => document.fonts.check('16px Vazirmatn', 'سفارش'))).toBe(true);
    // The API description opens in a new tab from the menu (a superuser holds view_apidocs).
    const docs = page.getByRole('menuitem', { name: 'مستندات API' });
    expect([await docs.getAttribute('href'), await docs.getAttribute('target')]).toEqual(['/api/docs/', '_blank']);
    await screenshot(page, 'dashboard');

    // The app bar's language menu.
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'Orders' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('ltr');
    expect(await figure('revenue')).toContain('379,000 toman');
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('menuitem', { name: 'فارسی' }).click();
    await page.getByRole('menuitem', { name: 'سفارش‌ها' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');

    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('learners and plans', () => {
  it('finds a learner by publicId and opens their page with their orders', async () => {
    const other = await signIn(stack); // a second learner the search must leave out
    const { page } = await pageOf();
    await page.goto('/admin/');
    await page.getByRole('menuitem', { name: 'کاربران', exact: true }).click();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByPlaceholder('شناسهٔ عمومی (User123456)، تلفن یا بخشی از نام').fill(learner.user.publicId.toLowerCase());
    await expect.poll(() => page.url()).toContain('filter');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(learner.user.publicId);
    expect(await rows.first().textContent()).not.toContain(faDigits(other.phone));
    await screenshot(page, 'users-search');
    await rows.first().click();
    await page.waitForURL(new RegExp(`/admin/users/${learner.userId}/show$`));
    await page.getByText('سفارش‌های این کاربر').waitFor();
    const orderRows = page.locator('tbody tr');
    await expect.poll(() => orderRows.count()).toBe(2);
    // The phone number in Persian digits, as every digit of the Persian panel.
    expect(await page.locator('main').textContent()).toContain(faDigits(learner.phone));
    // Issue 29 §5: the grade the learner's own answers name (never chosen: the default grade 4), not "—".
    const profile = await call(stack, 'GET', '/api/user/profile', { token: learner.accessToken });
    expect(profile.body.gradeId).toBe(4);
    await expect.poll(() => page.locator('.ra-field-gradeId').textContent()).toBe(`پایه${faNumber(4)}`);
    await screenshot(page, 'user-show', { fullPage: true });
    // A learner's order opens from their page.
    await page.locator('tbody tr', { hasText: 'پرداخت‌شده' }).click();
    await page.waitForURL(new RegExp(`/admin/orders/${paidOrder}/show$`));
  });

  it("edits a plan's SKU and product type; a SKU another plan holds is refused under the input", async () => {
    const { page } = await pageOf();
    await page.goto('/admin/plans');
    await page.locator('tbody tr', { hasText: 'mathisland_sub_1m' }).click();
    await page.waitForURL(/\/admin\/plans\/1\/show$/);
    // Ordered already (the pending order of beforeAll): it cannot be deleted, only taken off sale.
    await page.getByTestId('delete-kept').waitFor();
    expect(await page.getByRole('button', { name: 'حذف' }).count()).toBe(0);
    await page.getByRole('link', { name: 'ویرایش' }).click();
    await page.waitForURL(/\/admin\/plans\/1$/);
    const sku = page.getByLabel('شناسهٔ کالا در فروشگاه (SKU)');
    await expect.poll(() => sku.inputValue()).toBe('mathisland_sub_1m');
    // The tutor quota says whom an edit reaches: purchases from now on, not periods already paid.
    expect(await page.locator('.ra-input-aiDailyQuota .MuiFormHelperText-root').textContent()).toContain('برای خریدهای بعدی');
    await sku.fill('mathisland_sub_1m_v2');
    await page.getByRole('combobox', { name: 'نوع کالا در فروشگاه' }).click();
    await page.getByRole('option', { name: 'درون‌برنامه‌ای (یک دوره)' }).click();
    await screenshot(page, 'plan-edit', { fullPage: true });
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/plans\/1\/show$/);
    await page.getByText('mathisland_sub_1m_v2').waitFor();
    await page.getByText('درون‌برنامه‌ای (یک دوره)').waitFor();
    expect(await getPlanForStaff(stack.deps, 1)).toMatchObject({ marketplaceSku: 'mathisland_sub_1m_v2', marketplaceProductType: 'inapp' });

    // Plan 2's SKU (seeded) is taken: the API's 409 shows under the input and the form stays.
    await page.getByRole('link', { name: 'ویرایش' }).click();
    await page.waitForURL(/\/admin\/plans\/1$/);
    await sku.fill('mathisland_sub_3m');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await expect
      .poll(() => page.locator('.ra-input-marketplaceSku .MuiFormHelperText-root').textContent())
      .toBe('این شناسهٔ کالا را طرح دیگری دارد');
    expect(page.url()).toMatch(/\/admin\/plans\/1$/);
    // A SKU the API's pattern refuses never leaves the form.
    await sku.fill('sku with spaces');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await expect.poll(() => page.locator('.ra-input-marketplaceSku .MuiFormHelperText-root').textContent()).toContain('فقط حروف لاتین');
    expect((await getPlanForStaff(stack.deps, 1)).marketplaceSku).toBe('mathisland_sub_1m_v2');
  });
});

describe('orders', () => {
  it('lists the orders and filters them by status', async () => {
    const { page } = await pageOf();
    await page.goto('/admin/');
    await page.getByRole('menuitem', { name: 'سفارش‌ها' }).click();
    await page.waitForURL(/\/admin\/orders/);
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    await screenshot(page, 'orders-list');
    // The status filter (always shown): only the paid order.
    await page.getByLabel('وضعیت').click();
    await page.getByRole('option', { name: 'پرداخت‌شده', exact: true }).click();
    await expect.poll(() => page.url()).toContain('status');
    await expect.poll(() => rows.count()).toBe(1);
    // Ids in Persian digits, as every number of the Persian panel.
    expect(await rows.first().textContent()).toContain(faNumber(paidOrder));
    // Back to every order for the next tests of this context (react-admin keeps a list's filters).
    await page.goto('/admin/orders?filter=%7B%7D');
    await expect.poll(() => rows.count()).toBe(2);
  });

  it('opens an order by its deep link with its amount in Persian digits and its payment events in Persian', async () => {
    const { page } = await pageOf();
    await page.goto(`/admin/orders/${paidOrder}/show`);
    await page.getByText('پرداخت‌شده', { exact: true }).first().waitFor();
    await page
      .getByText(`${faNumber(379_000)} تومان`)
      .first()
      .waitFor();
    await page.getByRole('heading', { name: 'رویدادهای پرداخت' }).waitFor();
    await page.getByText('نتیجهٔ پرداخت').first().waitFor();
    const events = page.locator('tbody tr');
    await expect.poll(() => events.count()).toBe(4); // created, sent to the gateway, callback, result
    expect(await page.locator('thead').last().textContent()).toContain('زمان');
    await screenshot(page, 'order-show', { fullPage: true });
  });

  it('refunds a paid order through the confirmation page: days and commission before, days taken back after', async () => {
    // A referred buyer's first payment earned the referrer 10%.
    const referrer = (await signIn(stack)) as typeof learner;
    const { code } = (await call(stack, 'GET', '/api/affiliate', { token: referrer.accessToken })).body;
    const buyer = await signIn(stack);
    await call(stack, 'POST', '/api/affiliate/referrer', { token: buyer.accessToken, body: { code } });
    const { orderId } = await buyAndPay(stack, buyer, PLAN_90);

    const { page } = await pageOf();
    await page.goto(`/admin/orders/${orderId}/show`);
    await page.getByRole('link', { name: 'بازپرداخت' }).click();
    await page.waitForURL(new RegExp(`/admin/orders/${orderId}/refund$`));
    await page.getByText(`تأیید بازپرداخت سفارش #${orderId}`).first().waitFor();
    await page.getByTestId('refund-preview').waitFor();
    expect(await page.getByTestId('preview-days').textContent()).toBe(`${faNumber(90)} روز`);
    const commission = await page.getByTestId('preview-commission').textContent();
    expect(commission).toContain(`${faNumber(37_900)} تومان`);
    expect(commission).toContain(referrer.user.publicId);
    const confirm = page.getByTestId('confirm-refund');
    await expect.poll(() => confirm.isEnabled()).toBe(true);
    await screenshot(page, 'refund-confirmation');
    await confirm.click();
    await page.getByTestId('refund-done').waitFor();
    expect(await page.getByTestId('days-taken-back').textContent()).toBe(`${faNumber(90)} روز`);
    expect(await page.getByTestId('commission-reversed').textContent()).toBe(`${faNumber(37_900)} تومان`);
    // The order is refunded now, and offers no second refund.
    await page.goto(`/admin/orders/${orderId}/show`);
    await page.getByText('بازپرداخت‌شده').first().waitFor();
    expect(await page.getByRole('link', { name: 'بازپرداخت' }).count()).toBe(0);
    const status = await call(stack, 'GET', '/api/subscription/status', { token: buyer.accessToken });
    expect(status.body.active).toBe(false);
  });

  it('cancels a pending order after asking', async () => {
    const { page } = await pageOf();
    await page.goto(`/admin/orders/${pendingOrder}/show`);
    await page.getByRole('button', { name: 'لغو سفارش' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    await page.getByText('لغوشده').first().waitFor();
  });

  it('shows a staff member without change_order no refund button, and the confirmation page refuses to confirm', async () => {
    const { page } = await pageOf(viewing);
    await page.goto(`/admin/orders/${paidOrder}/show`);
    await page.getByText('پرداخت‌شده', { exact: true }).first().waitFor();
    expect(await page.getByRole('link', { name: 'بازپرداخت' }).count()).toBe(0);
    // Menus hold only what this staff member may list.
    await page.getByRole('menuitem', { name: 'سفارش‌ها' }).waitFor();
    for (const hidden of ['کاربران', 'طرح‌های اشتراک', 'کارکنان', 'اتصال فروشگاه', 'مستندات API']) {
      expect(await page.getByRole('menuitem', { name: hidden, exact: true }).count()).toBe(0);
    }
    // The confirmation page shows what a refund would take back (view_order reads it) and refuses to confirm.
    await page.goto(`/admin/orders/${paidOrder}/refund`);
    await page.getByTestId('refund-preview').waitFor();
    expect(await page.getByTestId('preview-days').textContent()).toBe(`${faNumber(90)} روز`);
    await page.getByTestId('refund-refused').waitFor();
    expect(await page.getByTestId('refund-refused').textContent()).toContain('change_order');
    expect(await page.getByTestId('confirm-refund').count()).toBe(0);
  });
});
