/**
 * The staff panel's everyday tools (issue 25 parts 5 and 6) in Chromium, against one local stack for the file: a
 * Jalali date and time typed in a browser set to UTC is saved as the same Tehran time and shown as typed; the users
 * list on a 390 px phone (react-admin's compact list); the pagination bar and ids in Persian digits; the success
 * message naming the record; saved filters.
 */
import type { BrowserContext } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Session, signIn } from '../support/stack';
import { usePanelFixture } from './fixture';
import { typeInPicker } from './pickers';
import { faDigits, faNumber, screenshot } from './support';

const panel = usePanelFixture(Date.UTC(2026, 10, 20, 8, 0, 0));
let utc: BrowserContext;
let phone: BrowserContext;
const learners: Session[] = [];

beforeAll(async () => {
  for (let i = 0; i < 3; i++) learners.push(await signIn(panel.stack));
  [utc, phone] = await Promise.all([
    panel.rootContext({ timezoneId: 'UTC' }),
    panel.rootContext({ viewport: { width: 390, height: 844 } }),
  ]);
});

describe('dates in, as dates out', () => {
  it('saves a Jalali date and time typed in a browser set to UTC as that Tehran time, and shows it as typed', async () => {
    const p = await panel.pageOf(utc);
    const { page, errors } = p;
    expect(await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('UTC');
    await page.goto('/admin/discount-codes/create');
    await page.locator('input[name="code"]').fill('shabe-yalda');
    await page.locator('input[name="title"]').fill('شب یلدا');
    await page.locator('input[name="percent"]').fill('30');
    // 23:59 on 30 Azar 1405 in Tehran (21 December 2026, 20:29 UTC): in a right-to-left field the time comes first.
    await typeInPicker(page, 'validUntil', '235914050930');
    await expect.poll(() => page.getByTestId('validUntil-shown').textContent()).toBe('۳۰ آذر ۱۴۰۵ ساعت ۲۳:۵۹');
    await screenshot(page, 'jalali-picker');
    await page.getByRole('button', { name: 'ذخیره' }).click();
    await page.waitForURL(/\/admin\/discount-codes\/SHABE-YALDA\/show$/);
    // The success message names the record.
    await page.getByText('کد تخفیف ساخته شد').waitFor();
    const saved = await utc.request.get('/api/admin/discount-codes/SHABE-YALDA');
    expect(new Date((await saved.json()).validUntil).toISOString()).toBe('2026-12-21T20:29:00.000Z');
    await page.getByText('۳۰ آذر ۱۴۰۵').first().waitFor();
    // Opened again for editing, the picker shows what was typed, whatever the browser's zone.
    await page.getByRole('link', { name: 'ویرایش' }).click();
    await page.waitForURL(/\/admin\/discount-codes\/SHABE-YALDA$/);
    await expect.poll(() => page.locator('.ra-input-validUntil input').first().inputValue()).toBe('۲۳:۵۹\u2069 \u2066۱۴۰۵/۰۹/۳۰');
    expect(errors).toEqual([]);
  });
});

describe('lists', () => {
  it('shows the users list on a 390 px phone as a compact list, without a horizontal scroll, in Persian digits', async () => {
    const { page, errors } = await panel.pageOf(phone);
    await page.goto('/admin/users');
    const items = page.locator('#main-content .MuiList-root > li');
    await expect.poll(() => items.count()).toBe(learners.length);
    // Each learner's public id with their phone number at the row's end (apart from the id), and no table.
    for (const learner of learners) {
      const row = items.filter({ hasText: (learner as Session & { user: { publicId: string } }).user.publicId });
      await expect.poll(() => row.locator('.RaSimpleList-tertiary').textContent()).toContain(faDigits(learner.phone.slice(-10)));
      const [id, phoneBox] = await Promise.all([
        row.getByText(/^User\d+$/).boundingBox(),
        row.locator('.RaSimpleList-tertiary').boundingBox(),
      ]);
      expect(phoneBox!.x + phoneBox!.width).toBeLessThan(id!.x);
    }
    expect(await page.locator('table').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The pagination bar's range in Persian digits.
    await expect
      .poll(() => page.locator('.MuiTablePagination-displayedRows').textContent())
      .toBe(`${faNumber(1)} تا ${faNumber(3)} از ${faNumber(3)}`);
    await screenshot(page, 'users-phone', { fullPage: true });
    await items.first().click();
    await page.waitForURL(/\/admin\/users\/\d+\/show$/);
    expect(errors).toEqual([]);
  });

  it('numbers ids, counts and pages in Persian digits and saves a filter for later', async () => {
    const { page } = await panel.pageOf();
    // The three seeded plans one a page: page buttons, range and ids in Persian digits.
    await page.goto('/admin/plans?perPage=1');
    await expect.poll(() => page.locator('.MuiPagination-root').textContent()).toBe('۱۲۳');
    expect(await page.locator('.MuiTablePagination-displayedRows').textContent()).toBe(
      `${faNumber(1)} تا ${faNumber(1)} از ${faNumber(3)}`,
    );
    expect(await page.locator('tbody tr td.column-id').first().textContent()).toBe('۱');
    await page.getByRole('button', { name: /۳/ }).click();
    await expect.poll(() => page.locator('tbody tr td.column-id').first().textContent()).toBe('۳');
    await page.goto('/admin/users');
    // A search saved under a name comes back from the filter menu.
    const publicId = (learners[0] as Session & { user: { publicId: string } }).user.publicId;
    await page.getByPlaceholder('شناسهٔ عمومی (User123456)، تلفن یا بخشی از نام').fill(publicId);
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('button', { name: 'اضافه‌کردن فیلتر' }).click();
    await page.getByRole('menuitem', { name: 'ذخیرهٔ فیلتر کنونی…' }).click();
    await page.getByRole('dialog').locator('input').fill('یادگیرندهٔ اول');
    await page.getByRole('dialog').getByRole('button', { name: 'ذخیره' }).click();
    await page.goto('/admin/users?filter=%7B%7D');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(learners.length);
    await page.getByRole('button', { name: 'اضافه‌کردن فیلتر' }).click();
    await page.getByRole('menuitem', { name: 'یادگیرندهٔ اول' }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').first().textContent()).toContain(publicId);
  });
});
