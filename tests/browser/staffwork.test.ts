/**
 * The staff panel's other daily work in a real browser, against one local stack for the file: discount codes and
 * offers, support tickets, notifications, staff accounts (and what a new staff member then sees), learners'
 * sessions, OTP records, the marketplace connection and the tutor's feedback and usage. Each test checks the
 * result where the learner or the API sees it too. The superuser's context is signed in once.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import { saveDiscountCode } from '@mathisland/core/subscriptions';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { call, lastCode, newPhone, type Session, signIn, startTestStack, type TestStack } from '../support/stack';
import { ask, llmConfig } from '../support/tutor';
import { typeInPicker } from './pickers';
import {
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

let stack: TestStack;
let browser: Browser;
let root: BrowserContext;
let learner: Session & { user: { publicId: string } };
let ticketId: number;
const opened: PanelPage[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ now: NOW }), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: 'root', password, isSuperuser: true });
  learner = (await signIn(stack)) as typeof learner;
  const ticket = await call(stack, 'POST', '/api/tickets', {
    token: learner.accessToken,
    body: { subject: 'اشتراکم فعال نشد', text: 'پرداخت کردم ولی هنوز قفل است.' },
  });
  expect(ticket.status, ticket.text).toBe(201);
  ticketId = ticket.body.id;
  root = await signedInContext(browser, stack.baseUrl, 'root', password);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

async function pageOf(context: BrowserContext = root): Promise<PanelPage> {
  const p = await openPage(context, stack.baseUrl);
  opened.push(p);
  return p;
}

/** The helper text (or error) under the form input of `source`. */
const helperOf = (p: PanelPage, source: string) => p.page.locator(`.ra-input-${source} .MuiFormHelperText-root`).first().textContent();

describe('discount codes and offers', () => {
  it('creates a discount code for one plan, advertised until a day (a code that exists is refused under its input)', async () => {
    const p = await pageOf();
    const { page } = p;
    await page.goto('/admin/discount-codes');
    await page.getByRole('link', { name: 'ایجاد' }).click();
    await page.waitForURL(/\/admin\/discount-codes\/create$/);
    await page.locator('input[name="code"]').fill('yalda40');
    await page.locator('input[name="title"]').fill('تخفیف شب یلدا');
    await page.locator('input[name="percent"]').fill('40');
    // The window's end in the Jalali picker: 23:59 on 30 Azar 1405 (a right-to-left field starts with the time).
    await typeInPicker(page, 'validUntil', '235914050930');
    await expect.poll(() => helperOf(p, 'validUntil')).toBe('۳۰ آذر ۱۴۰۵ ساعت ۲۳:۵۹');
    await page.getByRole('combobox', { name: 'طرح‌ها' }).click();
    await page.getByRole('option', { name: 'اشتراک سه‌ماهه' }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('نمایش در پیشنهادها').check();
    await screenshot(page, 'discount-code-create');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/discount-codes\/YALDA40\/show$/);
    await page.getByText('تخفیف شب یلدا').waitFor();
    await page.locator('.MuiChip-root', { hasText: 'اشتراک سه‌ماهه' }).waitFor();

    // The app's offers page shows it now, for the 90-day plan only, until the end of that minute (Tehran).
    const offers = await call(stack, 'GET', '/api/offers');
    expect(offers.body.items).toContainEqual(
      expect.objectContaining({ code: 'YALDA40', percent: 40, planIds: [2], validUntil: '2026-12-21T20:29:00.000Z' }),
    );
    await page.getByRole('menuitem', { name: 'پیشنهادها' }).click();
    await page.locator('tbody tr', { hasText: 'YALDA40' }).waitFor();

    // The same code again: the API's 409 under the code input.
    await page.goto('/admin/discount-codes/create');
    await page.locator('input[name="code"]').fill('YALDA40');
    await page.locator('input[name="title"]').fill('دوباره');
    await page.locator('input[name="percent"]').fill('10');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await expect.poll(() => helperOf(p, 'code')).toBe('این کد تخفیف از قبل هست');
    expect(page.url()).toMatch(/\/create$/);
  });

  it('makes a code that is not advertised an offer from its page', async () => {
    const made = await call(stack, 'GET', '/api/offers');
    expect(made.body.items.map((o: { code: string }) => o.code)).not.toContain('WELCOME10X');
    await saveDiscountCode(stack.deps.db, { code: 'WELCOME10X', title: 'خوش‌آمد', percent: 10, advertised: false, active: true });
    const { page } = await pageOf();
    await page.goto('/admin/discount-codes/WELCOME10X/show');
    await page.getByRole('button', { name: 'نمایش در پیشنهادها' }).click();
    await page.getByText('این کد حالا در پیشنهادهاست').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'نمایش در پیشنهادها' }).count()).toBe(0);
    const offers = await call(stack, 'GET', '/api/offers');
    expect(offers.body.items.map((o: { code: string }) => o.code)).toContain('WELCOME10X');
  });
});

describe('support and notifications', () => {
  it('replies to a ticket and closes it; the learner reads the reply', async () => {
    const { page } = await pageOf();
    await page.goto('/admin/tickets');
    await page.locator('tbody tr', { hasText: 'اشتراکم فعال نشد' }).click();
    await page.waitForURL(new RegExp(`/admin/tickets/${ticketId}/show$`));
    await page.getByTestId('message-learner').waitFor();
    stack.clock.advance(20 * 60); // the answer comes 20 minutes later
    await page.getByTestId('reply-text').fill('سلام، اشتراک شما فعال شد. دوباره وارد برنامه شوید.');
    await page.getByRole('button', { name: 'ارسال پاسخ' }).click();
    await page.getByTestId('message-staff').waitFor();
    expect(await page.getByTestId('message-staff').textContent()).toContain('(root)');
    await page.getByText('پاسخ داده‌شده').first().waitFor();
    await screenshot(page, 'ticket-show');
    await page.getByRole('button', { name: 'بستن تیکت' }).click();
    await page.locator('.MuiChip-root', { hasText: 'بسته' }).waitFor();
    await expect.poll(() => page.getByTestId('reply-text').count()).toBe(0);

    const seen = await call(stack, 'GET', `/api/tickets/${ticketId}`, { token: learner.accessToken });
    expect(seen.body.status).toBe('closed');
    expect(seen.body.messages.map((m: { text: string }) => m.text)).toContain('سلام، اشتراک شما فعال شد. دوباره وارد برنامه شوید.');
  });

  it('sends a notification to every learner, and one to a learner found by publicId', async () => {
    const p = await pageOf();
    const { page } = p;
    await page.goto('/admin/notifications');
    await page.getByRole('link', { name: 'ایجاد' }).click();
    await page.getByLabel('ارسال به همهٔ کاربران').check();
    await page.locator('input[name="title"]').fill('جزیرهٔ تازه');
    await page.locator('textarea[name="body"]').fill('جزیرهٔ کسرها باز شد!');
    await screenshot(page, 'notification-create');
    await page.getByRole('button', { name: 'ارسال اعلان' }).click();
    await page.waitForURL(/\/admin\/notifications$/);
    await page.locator('tbody tr', { hasText: 'جزیرهٔ تازه' }).waitFor();
    expect(await page.locator('tbody tr', { hasText: 'جزیرهٔ تازه' }).textContent()).toContain('همه');

    const other = (await signIn(stack)) as typeof learner;
    await page.getByRole('link', { name: 'ایجاد' }).click();
    await page.getByLabel('شناسهٔ کاربر').fill(other.user.publicId);
    await page.getByRole('option', { name: new RegExp(other.user.publicId) }).click();
    await page.locator('input[name="title"]').fill('پیام شخصی');
    await page.locator('textarea[name="body"]').fill('آفرین بر پیشرفتت!');
    await page.getByRole('button', { name: 'ارسال اعلان' }).click();
    await page.locator('tbody tr', { hasText: 'پیام شخصی' }).waitFor();

    const titles = async (s: Session) =>
      (await call(stack, 'GET', '/api/notifications', { token: s.accessToken })).body.items.map((n: { title: string }) => n.title);
    expect(await titles(learner)).toContain('جزیرهٔ تازه');
    expect(await titles(learner)).not.toContain('پیام شخصی');
    expect(await titles(other)).toContain('پیام شخصی');
  });
});

describe('staff accounts', () => {
  it('creates a staff member with permissions, who then sees and does only what they may', async () => {
    const p = await pageOf();
    const { page } = p;
    await page.goto('/admin/staff/create');
    await page.locator('input[name="username"]').fill('Support.Sara');
    await page.locator('input[name="password"]').fill(password);
    for (const permission of ['view_ticket', 'change_ticket', 'view_user']) {
      await page.getByRole('checkbox', { name: new RegExp(`\\(${permission}\\)`) }).check();
    }
    await screenshot(page, 'staff-create', { fullPage: true });
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/staff\/support\.sara\/show$/);
    await page.getByText('دیدن تیکت‌ها').waitFor();

    const sara = await newPanelPage(browser, stack.baseUrl);
    opened.push(sara);
    await signInOnPage(sara.page, 'support.sara', password);
    await sara.page.getByRole('menuitem', { name: 'تیکت‌های پشتیبانی' }).waitFor();
    await sara.page.getByRole('menuitem', { name: 'کاربران', exact: true }).waitFor();
    for (const hidden of ['سفارش‌ها', 'طرح‌های اشتراک', 'کدهای تخفیف', 'کارکنان', 'نشست‌های کاربران', 'اتصال فروشگاه']) {
      expect(await sara.page.getByRole('menuitem', { name: hidden, exact: true }).count()).toBe(0);
    }
    // A page outside the permissions is refused, not shown.
    await sara.page.goto('/admin/orders');
    await sara.page.getByText('شما مجوزهای مناسب برای دسترسی به این صفحه را ندارید').waitFor();
    expect(await sara.page.locator('tbody tr').count()).toBe(0);
    // The tickets are, with the reply box and the close button.
    const open = await call(stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'رمز یادم رفت', text: 'کمک!' } });
    await sara.page.goto('/admin/tickets');
    await sara.page.locator('tbody tr', { hasText: 'رمز یادم رفت' }).click();
    await sara.page.waitForURL(new RegExp(`/admin/tickets/${open.body.id}/show$`));
    await sara.page.getByTestId('reply-text').waitFor();
    await sara.page.getByRole('button', { name: 'بستن تیکت' }).waitFor();
    const ticketPage = sara.page.url();
    // A learner's page, without the learner's orders: those need view_order, which Sara does not hold.
    await page.goto(`/admin/users/${learner.userId}/show`);
    await page.getByText('سفارش‌های این کاربر').waitFor();
    await sara.page.goto(`/admin/users/${learner.userId}/show`);
    await sara.page.getByText('گزارش هفتگی به والدین').waitFor();
    expect(await sara.page.getByText('سفارش‌های این کاربر').count()).toBe(0);

    // Taking change_ticket away applies at Sara's next request: the ticket reads, without reply or close.
    await page.goto('/admin/staff/support.sara');
    await page.getByRole('checkbox', { name: /\(change_ticket\)/ }).uncheck();
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/staff\/support\.sara\/show$/);
    await sara.page.goto(ticketPage);
    await sara.page.getByTestId('message-learner').waitFor();
    expect(await sara.page.getByTestId('reply-text').count()).toBe(0);
    expect(await sara.page.getByRole('button', { name: 'بستن تیکت' }).count()).toBe(0);

    // Deleting the account signs Sara out.
    await page.goto('/admin/staff/support.sara');
    await page.getByRole('button', { name: 'حذف' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    await page.waitForURL(/\/admin\/staff$/);
    expect(await page.locator('tbody tr', { hasText: 'support.sara' }).count()).toBe(0);
    await sara.page.goto('/admin/tickets');
    await sara.page.waitForURL(/\/admin\/login$/);
    await sara.context.close();
  });
});

describe('learners’ sessions, OTP records, marketplace, tutor', () => {
  it("revokes a learner's session after asking: the learner must sign in again", async () => {
    const leaving = (await signIn(stack)) as typeof learner;
    const { page } = await pageOf();
    await page.goto('/admin/sessions');
    await page.getByLabel('شناسهٔ کاربر').fill(faNumber(leaving.userId));
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(leaving.user.publicId);
    await rows.first().getByRole('button', { name: 'باطل کردن' }).click();
    await page.getByRole('dialog').getByText('کاربر از برنامه خارج می‌شود').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    await page.getByText('نشست باطل شد').waitFor();
    await expect.poll(() => rows.count()).toBe(0);
    const refresh = await call(stack, 'POST', '/api/auth/refresh', { body: { refreshToken: leaving.refreshToken } });
    expect(refresh.status).toBe(401);
  });

  it('lists OTP records without the code', async () => {
    const phone = newPhone();
    expect((await call(stack, 'POST', '/api/auth/otp/request', { body: { phone } })).status).toBe(200);
    const code = await lastCode(stack, phone);
    const { page } = await pageOf();
    await page.goto('/admin/otp-records');
    const row = page.locator('tbody tr', { hasText: faDigits(phone) });
    await row.waitFor();
    expect(await row.textContent()).toContain('زنده');
    expect(await page.locator('main').textContent()).not.toContain(code);
    expect(await page.locator('main').textContent()).not.toContain(faDigits(code));
  });

  it('shows the marketplace connection and opens the authorize window with its link', async () => {
    const { page, context } = await pageOf();
    await page.goto('/admin/marketplace');
    await expect.poll(() => page.getByTestId('marketplace-mode').textContent()).toBe('کلید ثابت');
    const popup = context.waitForEvent('page');
    await page.getByRole('button', { name: 'باز کردن پنجرهٔ اجازه' }).click();
    const link = page.getByTestId('authorize-link');
    await link.waitFor();
    const href = (await link.getAttribute('href')) as string;
    expect(href).toMatch(/[?&]state=/);
    expect((await popup).url()).toBe(href);
    await page.getByText(/باز است تا/).waitFor();
    // The connection's history: the window opened, by whom.
    const history = page.getByTestId('record-history').locator('tbody tr');
    await expect.poll(() => history.count()).toBe(1);
    expect(await history.first().textContent()).toContain('root');
    await screenshot(page, 'marketplace');
    // The owner approves in the window that opened: the credential stored is in the history too, on behalf of whoever
    // opened the window, its token never shown.
    stack.clock.advance(60);
    await (await popup).getByRole('button', { name: /approve|اجازه/i }).click();
    await (await popup).waitForURL(/\/api\/payment\/marketplace\/verify/);
    await (await popup).close();
    await page.reload();
    await expect.poll(() => history.count()).toBe(2);
    expect(await history.first().textContent()).toContain('root');
    expect(await history.first().textContent()).toContain('توکن تازه‌سازی فروشگاه: تغییر کرد');
    await screenshot(page, 'marketplace-history');
  });

  it("shows the tutor's feedback with the question rated, and the day's usage", async () => {
    await llmConfig(stack, { firstTokenDelayMs: 5, chunkDelayMs: 1 });
    expect((await ask(stack, learner.accessToken, { userQuestion: 'حاصل ۱/۶ + ۱/۶ چند می‌شود؟' })).status).toBe(200);
    const [answer] = (await call(stack, 'GET', '/api/ai/history', { token: learner.accessToken })).body.items;
    const rated = await call(stack, 'POST', '/api/ai/feedback', {
      token: learner.accessToken,
      body: { messageId: answer.id, rating: 'down', comment: 'خیلی طولانی بود' },
    });
    expect(rated.status, rated.text).toBe(200);

    const { page } = await pageOf();
    await page.goto('/admin/tutor-feedback');
    const row = page.locator('tbody tr', { hasText: 'خیلی طولانی بود' });
    await row.waitFor();
    expect(await row.textContent()).toContain('نامفید');
    await row.click();
    await page.getByText('حاصل ۱/۶ + ۱/۶ چند می‌شود؟').last().waitFor();
    await page.goto('/admin/tutor-usage');
    const today = page.locator('tbody tr').first();
    await expect.poll(() => today.textContent()).toContain('۲۹ آبان ۱۴۰۵');
    expect(await today.locator('td').nth(1).textContent()).toBe(faNumber(1));
  });
});
