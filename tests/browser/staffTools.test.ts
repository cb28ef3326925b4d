/**
 * Issue 25's staff tools in Chromium, against one local stack for the file: a plan's price change in the plan's own
 * history and in the staff history; a record's history paged; an offer's page and history; the staff history's links
 * only to pages that exist; a list's CSV export (every row, more than a page, with the list's filters) opened
 * as CSV; a bulk close of tickets with one row failing (its learner deleted the account meanwhile) reported on screen
 * while the others close; the dashboard's 30-day charts.
 */

import { readFileSync } from 'node:fs';
import { createStaff } from '@mathisland/core/admin';
import { describe, expect, it } from 'vitest';
import { call, lastCode, type Session, signIn } from '../support/stack';
import { usePanelFixture } from './fixture';
import { faNumber, screenshot, signedInContext } from './support';

const panel = usePanelFixture(Date.UTC(2026, 10, 20, 8, 0, 0));

/** The lines of a CSV file without its BOM (the exports' cells here hold no line breaks). */
const csvLines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split(/\r?\n/);

describe('history', () => {
  it("shows a plan's price change in the plan's history tab and in the staff history", async () => {
    const { page, errors } = await panel.pageOf();
    await page.goto('/admin/plans/1');
    const price = page.locator('input[name="price"]');
    await expect.poll(() => price.inputValue()).not.toBe('');
    const before = Number(await price.inputValue());
    await price.fill(String(before + 10_000));
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/plans\/1\/show$/);
    // The success message names the record.
    await page.getByText('طرح ذخیره شد').waitFor();
    await page.getByRole('tab', { name: 'تاریخچه' }).click();
    await page.waitForURL(/\/admin\/plans\/1\/show\/history$/);
    const change = page.getByTestId('history-changes').first();
    await expect.poll(() => change.textContent()).toBe(`قیمت (تومان): ${faNumber(before)} ← ${faNumber(before + 10_000)}`);
    expect(await page.locator('tbody tr').first().textContent()).toContain('root');
    await screenshot(page, 'plan-history');

    // The staff history, filtered to plans: the same change, linked to the plan.
    await page.getByRole('menuitem', { name: 'تاریخچهٔ کارکنان' }).click();
    await page.getByLabel('نوع').click();
    await page.getByRole('option', { name: 'طرح', exact: true }).click();
    await expect.poll(() => page.url()).toContain('model');
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain(`${faNumber(before)} ← ${faNumber(before + 10_000)}`);
    await screenshot(page, 'history');
    await rows.first().getByRole('link').click();
    await page.waitForURL(/\/admin\/plans\/1\/show$/);
    expect(errors).toEqual([]);
  });
  it("pages a record's history: every entry reachable, newest first, whatever their number", async () => {
    const made = await panel.root.request.post('/api/admin/discount-codes', { data: { code: 'PAGED31', title: 'عنوان ۰', percent: 10 } });
    expect(made.status()).toBe(201);
    for (let i = 1; i <= 30; i++) {
      panel.stack.clock.advance(60);
      const changed = await panel.root.request.patch('/api/admin/discount-codes/PAGED31', { data: { title: `عنوان ${i}` } });
      expect(changed.status()).toBe(200);
    }
    const { page, errors } = await panel.pageOf();
    await page.goto('/admin/discount-codes/PAGED31/show/history');
    const rows = page.getByTestId('record-history').locator('tbody tr');
    // 31 entries (the creation and 30 changes): a page of 25, newest first, then the other 6.
    await expect.poll(() => rows.count()).toBe(25);
    expect(await rows.first().textContent()).toContain('عنوان 29 ← عنوان 30');
    await page.getByRole('button', { name: 'بعدی' }).click();
    await expect.poll(() => rows.count()).toBe(6);
    expect(await rows.first().textContent()).toContain('عنوان 4 ← عنوان 5');
    expect(await rows.last().textContent()).toContain('ساختن');
    // The list's page is the record's own: the address and the staff history keep theirs.
    expect(page.url()).toMatch(/\/admin\/discount-codes\/PAGED31\/show\/history$/);
    expect(errors).toEqual([]);
  });

  it("opens an offer's page with its history, to staff who may view offers only; Edit returns to it", async () => {
    const made = await panel.root.request.post('/api/admin/discount-codes', { data: { code: 'NOWRUZ25', title: 'نوروز', percent: 25 } });
    expect(made.status()).toBe(201);
    // A minute between changes, as between a staff member's clicks (entries of one millisecond have no order).
    panel.stack.clock.advance(60);
    expect((await panel.root.request.patch('/api/admin/offers/NOWRUZ25', { data: { advertised: true } })).status()).toBe(200);
    const offerStaff = 'offers-only';
    await createStaff(panel.stack.deps.db, panel.stack.clock, {
      username: offerStaff,
      password: panel.password,
      isSuperuser: false,
      permissions: ['view_offer', 'change_offer'],
    });
    const context = await signedInContext(panel.browser, panel.stack.baseUrl, offerStaff, panel.password);
    try {
      const { page, errors } = await panel.pageOf(context);
      await page.goto('/admin/offers');
      await page.getByRole('cell', { name: 'NOWRUZ25' }).click();
      await page.waitForURL(/\/admin\/offers\/NOWRUZ25\/show$/);
      await page.getByRole('tab', { name: 'تاریخچه' }).click();
      const rows = page.getByTestId('record-history').locator('tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.first().textContent()).toContain('root');
      // Its title changed on the offer's edit page: saved, back on the page, newest in its history.
      await page.getByRole('link', { name: 'ویرایش' }).click();
      await page.locator('input[name="title"]').fill('نوروز ۱۴۰۶');
      panel.stack.clock.advance(60);
      await page.getByRole('button', { name: 'ذخیره' }).click();
      await page.waitForURL(/\/admin\/offers\/NOWRUZ25\/show$/);
      await page.getByRole('tab', { name: 'تاریخچه' }).click();
      await expect.poll(() => rows.count()).toBe(3);
      expect(await rows.first().textContent()).toContain(offerStaff);
      expect(await rows.first().textContent()).toContain('نوروز ← نوروز ۱۴۰۶');
      await screenshot(page, 'offer-history');
      // Withdrawn from the offers on its edit page: back on the list, which no longer shows it (its page is gone).
      await page.getByRole('link', { name: 'ویرایش' }).click();
      await page.locator('input[name="advertised"]').uncheck();
      const notFound: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 404 && r.url().includes('/api/admin/offers/')) notFound.push(r.url());
      });
      await page.getByRole('button', { name: 'ذخیره' }).click();
      await page.getByText('پیشنهاد ذخیره شد').waitFor();
      await page.waitForURL(/\/admin\/offers$/);
      await page.locator('tbody').waitFor();
      await expect.poll(() => page.getByRole('cell', { name: 'NOWRUZ25' }).count()).toBe(0);
      // It went straight to the list: no page of an offer that is no more (404, «المان پیدا نشد») on the way.
      expect(notFound).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await context.close();
    }
  });
});

describe('CSV export', () => {
  it('exports every row of a list (more than a page) and of a filtered list as CSV a spreadsheet opens', async () => {
    for (let i = 1; i <= 30; i++) {
      const sent = await panel.root.request.post('/api/admin/notifications', { data: { all: true, title: `اطلاعیهٔ ${i}`, body: 'متن' } });
      expect(sent.status()).toBe(201);
    }
    const { page } = await panel.pageOf();
    await page.goto('/admin/notifications');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(25);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const text = readFileSync((await download.path()) as string, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    const lines = csvLines(text);
    expect(lines[0]).toContain('title');
    expect(lines).toHaveLength(31);
    for (let i = 1; i <= 30; i++) expect(text).toContain(`اطلاعیهٔ ${i},`);

    // The staff history filtered to the notifications sent: the export carries the list's filters.
    await page.goto(`/admin/history?filter=${encodeURIComponent(JSON.stringify({ model: 'notification', action: 'add' }))}`);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(25);
    const href = await page.getByTestId('export-csv').getAttribute('href');
    expect(href).toContain('model=notification');
    expect(href).toContain('action=add');
    const [filtered] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    expect(csvLines(readFileSync((await filtered.path()) as string, 'utf8'))).toHaveLength(31);
  });

  it('asks for the kind of record before a record id in the history, instead of failing the list', async () => {
    const sent = await panel.root.request.post('/api/admin/notifications', { data: { all: true, title: 'برای تاریخچه', body: 'متن' } });
    expect(sent.status()).toBe(201);
    const { id } = (await sent.json()) as { id: number };
    const { page } = await panel.pageOf();
    const shown = `displayedFilters=${encodeURIComponent(JSON.stringify({ objectId: true }))}`;
    // A record id alone (the API refuses it without its kind, 400): the list drops it and still reads.
    await page.goto(`/admin/history?filter=${encodeURIComponent(JSON.stringify({ objectId: '42' }))}`);
    await expect.poll(() => page.locator('tbody tr').count()).toBeGreaterThan(0);
    await expect.poll(() => new URL(page.url()).searchParams.get('filter') ?? '').not.toContain('objectId');
    // The record id input waits for a kind, and says so.
    await page.goto(`/admin/history?${shown}`);
    await page.getByText('شناسه: اول نوع را برگزینید').waitFor();
    expect(await page.locator('.ra-input-objectId input').isDisabled()).toBe(true);
    await screenshot(page, 'history-record-needs-kind');
    // With a kind chosen it can be typed, and the list shows that record's history.
    await page.goto(
      `/admin/history?filter=${encodeURIComponent(JSON.stringify({ model: 'notification', objectId: String(id) }))}&${shown}`,
    );
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('.ra-input-objectId input').isDisabled()).toBe(false);
  });
});

describe('bulk actions', () => {
  it('closes the selected tickets and reports the one whose learner deleted the account meanwhile', async () => {
    const stays = await signIn(panel.stack);
    const leaves = await signIn(panel.stack);
    const ids: number[] = [];
    for (const [learner, subject] of [
      [stays, 'یک'],
      [stays, 'دو'],
      [leaves, 'سه'],
    ] as [Session, string][]) {
      const made = await call(panel.stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject, text: 'سلام' } });
      expect(made.status).toBe(201);
      ids.push(made.body.id);
    }
    const { page } = await panel.pageOf();
    await page.goto('/admin/tickets');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(3);
    await page.locator('thead input[type="checkbox"]').check();
    await page.getByTestId('bulk-close').waitFor();

    // Meanwhile the third ticket's learner deletes the account, and the ticket with it.
    panel.stack.clock.advance(61);
    await call(panel.stack, 'POST', '/api/auth/otp/request', { body: { phone: leaves.phone } });
    const code = await lastCode(panel.stack, leaves.phone);
    expect((await call(panel.stack, 'POST', '/api/user/delete', { token: leaves.accessToken, body: { otp: code } })).status).toBe(204);

    await page.getByTestId('bulk-close').click();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    const results = page.getByTestId('bulk-results');
    await results.waitFor();
    expect(await results.getByTestId(`bulk-result-${ids[0]}`).textContent()).toContain('انجام شد');
    expect(await results.getByTestId(`bulk-result-${ids[1]}`).textContent()).toContain('انجام شد');
    expect(await results.getByTestId(`bulk-result-${ids[2]}`).textContent()).toContain('پیدا نشد');
    await page.getByText(`${faNumber(2)} انجام شد، ${faNumber(0)} از پیش چنین بود، ${faNumber(1)} ناموفق`).waitFor();
    await screenshot(page, 'bulk-close');
    for (const id of ids.slice(0, 2)) {
      const ticket = await panel.root.request.get(`/api/admin/tickets/${id}`);
      expect((await ticket.json()).status).toBe('closed');
    }
  });
});

describe('dashboard', () => {
  it('charts the last 30 Tehran days with Jalali day labels and Persian digits', async () => {
    await signIn(panel.stack);
    const { page } = await panel.pageOf();
    await page.goto('/admin/');
    const counts = page.getByTestId('chart-counts');
    await counts.locator('svg').first().waitFor();
    // Today (29 Aban 1405 in Tehran) is the last day; a label every fifth day back from it.
    await expect.poll(() => counts.locator('.MuiChartsAxis-tickLabel').allTextContents()).toContain('۲۹ آبان');
    const labels = await counts.locator('.MuiChartsAxis-tickLabel').allTextContents();
    expect(labels).toContain('۲۴ آبان');
    expect(labels.join(' ')).not.toMatch(/[0-9]/);
    await page.getByTestId('chart-revenue').locator('svg').first().waitFor();
    await screenshot(page, 'dashboard-charts', { fullPage: true });
  });
});

describe("the staff history's links", () => {
  it('names a record without a page (or one the staff member may not open) in the staff history, and links one with a page', async () => {
    const sent = await panel.root.request.post('/api/admin/notifications', { data: { all: true, title: 'بدون صفحه', body: 'متن' } });
    expect(sent.status()).toBe(201);
    const { page } = await panel.pageOf();
    await page.goto(`/admin/history?filter=${encodeURIComponent(JSON.stringify({ model: 'notification' }))}`);
    const row = page.locator('tbody tr').filter({ hasText: 'بدون صفحه' });
    await row.waitFor();
    // A notification has no page in the panel: its name, not a link to a page that does not exist.
    expect(await row.getByRole('link').count()).toBe(0);
    await page.goto(`/admin/history?filter=${encodeURIComponent(JSON.stringify({ model: 'discountcode' }))}`);
    const code = page.locator('tbody tr').filter({ hasText: 'NOWRUZ25' }).first();
    await code.getByRole('link').click();
    await page.waitForURL(/\/admin\/discount-codes\/NOWRUZ25\/show$/);

    // A staff member who may read the history but not view discount codes gets the record's name, no link to a page
    // that would refuse them.
    await createStaff(panel.stack.deps.db, panel.stack.clock, {
      username: 'history-only',
      password: panel.password,
      isSuperuser: false,
      permissions: ['view_logentry'],
    });
    const context = await signedInContext(panel.browser, panel.stack.baseUrl, 'history-only', panel.password);
    try {
      const { page: other } = await panel.pageOf(context);
      await other.goto(`/admin/history?filter=${encodeURIComponent(JSON.stringify({ model: 'discountcode' }))}`);
      const row = other.locator('tbody tr').filter({ hasText: 'NOWRUZ25' }).first();
      await row.waitFor();
      expect(await row.getByRole('link').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe("a learner's records and one's own password", () => {
  it("shows a learner's orders, tickets and tutor usage on the Records tab of their page", async () => {
    const learner = await signIn(panel.stack);
    await call(panel.stack, 'POST', '/api/tickets', { token: learner.accessToken, body: { subject: 'پرسش', text: 'سلام' } });
    const { page, errors } = await panel.pageOf();
    await page.goto(`/admin/users/${learner.userId}/show/records`);
    await page.getByTestId('user-tickets').getByText('پرسش').waitFor();
    await page.getByTestId('user-orders').waitFor();
    await page.getByTestId('user-tutor-usage').waitFor();
    await page.getByTestId('user-sessions').locator('tbody tr').first().waitFor();
    expect(errors).toEqual([]);
  });

  it('changes its own password with the current one; a wrong current one is refused under its input', async () => {
    const { page } = await panel.pageOf(await panel.rootContext({}));
    await page.goto('/admin/');
    await page.getByRole('button', { name: /پروفایل|Profile/ }).click();
    await page.getByRole('menuitem', { name: 'تغییر گذرواژه' }).click();
    await page.waitForURL(/\/admin\/password$/);
    await page.locator('input[name="oldPassword"]').fill('not-the-password');
    await page.locator('input[name="newPassword"]').fill('a-new-password-123');
    await page.locator('input[name="repeat"]').fill('a-new-password-123');
    await page.getByRole('button', { name: 'تغییر گذرواژه' }).click();
    await expect.poll(() => page.locator('.ra-input-oldPassword .MuiFormHelperText-root').textContent()).not.toBe('');
    await page.locator('input[name="oldPassword"]').fill(panel.password);
    await page.getByRole('button', { name: 'تغییر گذرواژه' }).click();
    await page.getByText('گذرواژه عوض شد؛ نشست‌های دیگر شما پایان یافت').waitFor();
    // This browser stays signed in; the root context of the other tests was another session, now ended.
    await page.goto('/admin/users');
    await page.locator('tbody').waitFor();
    expect((await panel.root.request.get('/api/admin/me')).status()).toBe(401);
  });
});
