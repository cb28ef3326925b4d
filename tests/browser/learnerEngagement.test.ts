/**
 * The learner's page in the staff panel, in a real browser (DESIGN §13): a learner with a 7-day streak (one freeze
 * earned), questions in the mistakes review (one due) and a parent whose number is confirmed and got this week's
 * report; the page shows the freezes, the review's counts, the parent's number masked and the report's status, in
 * Persian and in English, and never the whole number.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import type { SeedQuestion } from '@mathisland/core/curriculum';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allNodes, questionsOf, wrongAnswer } from '../support/content';
import { call, freshToken, newPhone, type Session, signIn, startTestStack, type TestStack } from '../support/stack';
import { faDigits, faNumber, launchBrowser, openPage, screenshot, signedInContext } from './support';

const tehran = (day: string, time = '10:00:00') => Date.parse(`${day}T${time}+03:30`);
const password = `pw-${randomUUID()}`;

let stack: TestStack;
let browser: Browser;
let admin: BrowserContext;
let learner: Session;
const parentPhone = newPhone();

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ now: tehran('2026-11-21') }), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: 'root', password, isSuperuser: true });
  learner = await signIn(stack);
  const intro = allNodes()[0]!.lessons[0]!;
  // Seven days in a row, Saturday 21st to Friday 27th: a freeze earned.
  for (let d = 21; d <= 27; d++) {
    stack.clock.set(tehran(`2026-11-${d}`));
    await call(stack, 'POST', `/api/lessons/${intro.id}/complete`, { token: await freshToken(stack, learner) });
  }
  // Two mistakes on Thursday (one due by Friday) and one on Friday.
  const [q1, q2, q3] = questionsOf(allNodes()[0]!) as [SeedQuestion, SeedQuestion, SeedQuestion];
  stack.clock.set(tehran('2026-11-26'));
  let token = await freshToken(stack, learner);
  for (const q of [q1, q2]) await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token, body: { answer: wrongAnswer(q) } });
  stack.clock.set(tehran('2026-11-27', '17:00:00'));
  token = await freshToken(stack, learner);
  await call(stack, 'POST', `/api/questions/${q3.id}/answer`, { token, body: { answer: wrongAnswer(q3) } });
  await call(stack, 'POST', `/api/review/${q1.id}/answer`, { token, body: { answer: q1.answer } }); // q1 up to box 2
  // The parent's number, confirmed; Friday 18:00 the week's report.
  await call(stack, 'POST', '/api/user/parent', { token, body: { phone: parentPhone } });
  const code = (await call(stack, 'GET', `/_local/sms/outbox?phone=${parentPhone}`)).body.items.at(-1).token;
  expect((await call(stack, 'POST', '/api/user/parent/verify', { token, body: { code } })).status).toBe(200);
  stack.clock.set(tehran('2026-11-27', '18:00:00'));
  expect((await call(stack, 'POST', '/_local/jobs/parent-reports')).body.counts.sent).toBe(1);
  admin = await signedInContext(browser, stack.baseUrl, 'root', password);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('the learner’s page', () => {
  it('shows the streak freezes, the review and the parent’s masked number and report status, in Persian and English', async () => {
    const { page, outside, errors } = await openPage(admin, stack.baseUrl);
    await page.goto(`/admin/users/${learner.userId}/show`);
    await page.getByText('رشتهٔ روزها و مرور اشتباه‌ها').waitFor();
    const main = page.locator('main');
    const label = (text: string) => main.locator('.ra-field', { hasText: text }).first().textContent();
    await expect.poll(() => label('یخ‌زدگی‌های در دست (از ۲)')).toContain(faNumber(1));
    expect(await label('رشتهٔ روزهای تمرین')).toContain(faNumber(7));
    expect(await label('پرسش‌های در مرور')).toContain(faNumber(3));
    expect(await label('مرور امروز')).toContain(faNumber(1));
    await page.getByText('گزارش هفتگی به والدین').waitFor();
    const masked = `${parentPhone.slice(0, 4)}****${parentPhone.slice(-3)}`;
    expect(await label('شمارهٔ والد')).toContain(faDigits(masked));
    expect(await main.textContent()).not.toContain(parentPhone);
    expect(await main.textContent()).not.toContain(faDigits(parentPhone));
    expect(await label('گزارش به والدین')).toContain('فعال');
    expect(await label('آخرین گزارش')).toContain('فرستاده شد');
    expect(await label('گزارش‌های فرستاده')).toContain(faNumber(1));
    await screenshot(page, 'user-show-engagement', { fullPage: true });

    // English.
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByText('Streak and mistakes review').waitFor();
    // Numbers keep the browser's digits (fa-IR here), as every number field of the panel does.
    await expect.poll(() => label('Streak freezes held (of 2)')).toMatch(/[1۱]$/);
    expect(await label('Questions in review')).toMatch(/[3۳]$/);
    expect(await label("Parent's number")).toContain(masked);
    expect(await label('Last report')).toContain('Sent');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('shows the report of a learner who named no parent as none, and an empty subscription and last report as "—", never a blank', async () => {
    const alone = await signIn(stack);
    // A context of its own: the test above leaves the panel in English.
    const context = await signedInContext(browser, stack.baseUrl, 'root', password);
    const { page, outside, errors } = await openPage(context, stack.baseUrl);
    await page.goto(`/admin/users/${alone.userId}/show`);
    await page.getByText('گزارش هفتگی به والدین').waitFor();
    const label = (text: string) => page.locator('main .ra-field', { hasText: text }).first().textContent();
    await expect.poll(() => label('گزارش به والدین')).toContain('ثبت نشده');
    // Nothing bought and nothing sent: "—", as every empty field of the page.
    for (const field of ['اشتراک فعال', 'آخرین گزارش', 'زمان آخرین گزارش', 'گزارش بعدی']) {
      await expect.poll(() => label(field), { message: field }).toMatch(/—\s*$/);
    }
    await screenshot(page, 'user-show-no-parent', { fullPage: true });
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
