/**
 * Staff sessions in the panel and the panel's own headers (issue 22 §2, §5), in a real browser against one local
 * stack: a superuser ends every session of a staff member from the member's page or of several ticked in the staff
 * list (one's own row not selectable), and a staff member signs out
 * everywhere from the user menu (both in Persian and in English); every page of the panel is served with the
 * Content-Security-Policy, nosniff and Referrer-Policy, and the built panel works under that policy with no
 * violation reported.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_CONTENT_SECURITY_POLICY } from '../../infra/edge';
import { startTestStack, type TestStack } from '../support/stack';
import { launchBrowser, openPage, type PanelPage, screenshot, signedInContext } from './support';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0);
const password = `pw-${randomUUID()}`;

let stack: TestStack;
let browser: Browser;
let root: BrowserContext;
const opened: PanelPage[] = [];
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack({ now: NOW }), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: 'root', password, isSuperuser: true });
  root = await signedInContext(browser, stack.baseUrl, 'root', password);
});

afterEach(async () => {
  await Promise.all(opened.splice(0).map((p) => p.page.close()));
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** A page of `context` that also records every Content-Security-Policy violation the browser reports. */
async function pageOf(context: BrowserContext = root): Promise<PanelPage & { violations: () => Promise<string[]> }> {
  const p = await openPage(context, stack.baseUrl);
  await p.page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => w.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  opened.push(p);
  return { ...p, violations: () => p.page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations) };
}

/** A staff member signed in twice: two browsers of their own. */
async function memberWithTwoBrowsers(username: string, options: { isSuperuser?: boolean } = {}) {
  await createStaff(stack.deps.db, stack.clock, {
    username,
    password,
    isSuperuser: options.isSuperuser ?? false,
    permissions: ['view_order'],
  });
  const one = await signedInContext(browser, stack.baseUrl, username, password);
  const two = await signedInContext(browser, stack.baseUrl, username, password);
  contexts.push(one, two);
  return { one, two };
}

/** Whether the browser of `context` is still signed in (the API answers its cookie). */
const signedIn = async (context: BrowserContext) => (await context.request.get('/api/admin/me')).status() === 200;

describe('the panel under its Content-Security-Policy', () => {
  it('serves every page of the panel with the policy, nosniff and same-origin referrers, never unsafe-eval', async () => {
    for (const path of ['/admin/', '/admin/orders/5/show', '/admin/index.html', '/admin/no-such.js']) {
      const res = await fetch(`${stack.baseUrl}${path}`);
      expect(res.headers.get('content-security-policy'), path).toBe(ADMIN_CONTENT_SECURITY_POLICY);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('referrer-policy'), path).toBe('same-origin');
    }
    expect(ADMIN_CONTENT_SECURITY_POLICY).toContain("default-src 'self'");
    expect(ADMIN_CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(ADMIN_CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(ADMIN_CONTENT_SECURITY_POLICY).toMatch(/script-src 'self'(;|$)/);
  });

  it('works under it: signs in, lists, edits and shows dialogs with no violation reported', async () => {
    const { page, errors, violations } = await pageOf(
      await browser.newContext({ baseURL: stack.baseUrl, locale: 'fa-IR' }).then((c) => {
        contexts.push(c);
        return c;
      }),
    );
    await page.goto('/admin/');
    await page.waitForURL(/\/admin\/login$/);
    await page.locator('input[name="username"]').fill('Root');
    await page.locator('input[name="password"]').fill(password);
    await page.locator('button[type="submit"]').click();
    await page.waitForURL((url) => !url.pathname.endsWith('/login'));
    await page.goto('/admin/staff');
    await page.locator('tbody tr', { hasText: 'root' }).first().waitFor();
    await page.goto('/admin/plans/create');
    await page.locator('input[name="title"]').waitFor();
    // MUI's styles applied (emotion's rules are in force): the app bar is not an unstyled block.
    const bar = await page
      .locator('header')
      .first()
      .evaluate((el) => getComputedStyle(el).position);
    expect(bar).toBe('fixed');
    expect(await violations()).toEqual([]);
    expect(errors).toEqual([]);
  });
});

describe('ending staff sessions', () => {
  it('ends every session of a staff member from their page after asking; the member’s browsers are signed out', async () => {
    const { one, two } = await memberWithTwoBrowsers('leaving.clerk');
    const { page, violations } = await pageOf();
    await page.goto('/admin/staff/leaving.clerk/show');
    await page.getByRole('button', { name: 'پایان نشست‌ها' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText('leaving.clerk همین حالا در همهٔ مرورگرها').waitFor();
    await screenshot(page, 'staff-end-sessions');
    await dialog.getByRole('button', { name: 'تایید' }).click();
    await page.getByText('همهٔ نشست‌های leaving.clerk پایان یافت').waitFor();
    expect(await signedIn(one)).toBe(false);
    expect(await signedIn(two)).toBe(false);
    expect(await signedIn(root)).toBe(true);
    // In the member's browser, the panel goes back to its login page.
    const member = await openPage(one, stack.baseUrl);
    opened.push(member);
    await member.page.goto('/admin/orders');
    await member.page.waitForURL(/\/admin\/login$/);
    expect(await violations()).toEqual([]);
  });

  it('ends the sessions of the staff members ticked in the list, each with its result; one’s own row cannot be ticked', async () => {
    const first = await memberWithTwoBrowsers('night.clerk');
    const second = await memberWithTwoBrowsers('day.clerk');
    const { page, violations } = await pageOf();
    await page.goto('/admin/staff');
    const row = (name: string) => page.locator('tbody tr', { hasText: name });
    await row('night.clerk').waitFor();
    expect(await row('root').locator('input[type="checkbox"]').isDisabled()).toBe(true);
    for (const name of ['night.clerk', 'day.clerk']) await row(name).locator('input[type="checkbox"]').check();
    await page.getByTestId('bulk-end_sessions').click();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    const results = page.getByTestId('bulk-results');
    await results.waitFor();
    for (const name of ['night.clerk', 'day.clerk'])
      expect(await results.getByTestId(`bulk-result-${name}`).textContent()).toContain('انجام شد');
    for (const context of [first.one, first.two, second.one, second.two]) expect(await signedIn(context)).toBe(false);
    expect(await signedIn(root)).toBe(true);
    expect(await violations()).toEqual([]);
  });

  it('signs out everywhere from the user menu after asking, in English too', async () => {
    const { one, two } = await memberWithTwoBrowsers('traveller');
    const { page } = await pageOf(one);
    await page.goto('/admin/');
    await page.getByRole('button', { name: /پروفایل|Profile/ }).click();
    await page.getByRole('menuitem', { name: 'خروج از همه‌جا' }).waitFor();
    await screenshot(page, 'staff-sign-out-everywhere');
    await page.getByRole('menuitem', { name: 'خروج از همه‌جا' }).click();
    await page.getByRole('dialog').getByText('همهٔ نشست‌های شما در همهٔ مرورگرها').waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'تایید' }).click();
    await page.waitForURL(/\/admin\/login$/);
    expect(await signedIn(one)).toBe(false);
    expect(await signedIn(two)).toBe(false);

    // The same in English, from a new sign-in.
    const english = await signedInContext(browser, stack.baseUrl, 'traveller', password);
    contexts.push(english);
    const en = await pageOf(english);
    await en.page.addInitScript(() => localStorage.setItem('RaStore.locale', JSON.stringify('en')));
    await en.page.goto('/admin/');
    await en.page.getByRole('button', { name: 'Profile' }).click();
    await en.page.getByRole('menuitem', { name: 'Sign out everywhere' }).click();
    await en.page.getByRole('dialog').getByText('Every session of yours ends').waitFor();
    await en.page.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await en.page.waitForURL(/\/admin\/login$/);
    expect(await signedIn(english)).toBe(false);
  });

  it('shows no end-sessions button to a staff member who may not change staff', async () => {
    const { one } = await memberWithTwoBrowsers('plain.viewer');
    const { page } = await pageOf(one);
    await page.goto('/admin/staff/root/show');
    await page
      .getByText(/ندارید|permission/)
      .first()
      .waitFor();
    expect(await page.getByRole('button', { name: 'پایان نشست‌ها' }).count()).toBe(0);
  });
});
