/**
 * Browser test support: Debian's Chromium driven by playwright-core (headless; Playwright passes --no-sandbox,
 * which running as root needs), a fresh context per test (own cookies) in Persian on Tehran time, sign-in
 * through the panel's own login page, and screenshots of the main screens into docs/admin/ when
 * ADMIN_SCREENSHOTS=1.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const SCREENSHOT_DIR = join(import.meta.dirname, '../../docs/admin');

export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: CHROMIUM, headless: true });

export interface PanelPage {
  context: BrowserContext;
  page: Page;
  /** Requests that left the stack's origin (the panel must make none: no telemetry, no CDN). */
  outside: string[];
  /** Uncaught errors of the page. */
  errors: string[];
}

export async function newPanelPage(browser: Browser, baseUrl: string): Promise<PanelPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    locale: 'fa-IR',
    timezoneId: 'Asia/Tehran',
  });
  const page = await context.newPage();
  const outside: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) outside.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, outside, errors };
}

/** Signs in through the login page; ends on the dashboard. */
export async function signInOnPage(page: Page, username: string, password: string): Promise<void> {
  await page.goto('/admin/');
  await page.waitForURL(/\/admin\/login$/);
  await page.locator('input[name="username"]').fill(username);
  await page.locator('input[name="password"]').fill(password);
  await page.locator('button[type="submit"]').click();
  await page.waitForURL((url) => !url.pathname.endsWith('/login'));
}

/** Writes docs/admin/<name>.png when ADMIN_SCREENSHOTS=1 (after the fonts are in, so the glyphs are Vazirmatn's). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.ADMIN_SCREENSHOTS !== '1') return;
  await page.evaluate(() => document.fonts.ready);
  await page.waitForTimeout(300); // let MUI's transitions settle
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

/** The page reads right to left, in Persian. */
export async function expectRtlPersian(page: Page): Promise<void> {
  const html = await page.evaluate(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));
  expect(html).toEqual({ dir: 'rtl', lang: 'fa' });
}

/** Persian digits of a number (as Intl fa-IR writes them, with its grouping). */
export const faNumber = (n: number): string => n.toLocaleString('fa-IR');
