/**
 * Browser test support: Chromium (the one `chromium.ts` finds, handed over by the global setup) driven by playwright-core (headless; Playwright passes --no-sandbox,
 * which running as root needs), contexts in Persian on Tehran time (one signed-in context per staff member and
 * file, a page per test), sign-in through the panel's own login page or the API, and screenshots of the main
 * screens into docs/admin/ when ADMIN_SCREENSHOTS=1.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';

const SCREENSHOT_DIR = join(import.meta.dirname, '../../docs/admin');

/** A headless Chromium: the binary the global setup found (`tests/browser/chromium.ts`). */
export const launchBrowser = (): Promise<Browser> => chromium.launch({ executablePath: inject('chromiumPath'), headless: true });

export interface PanelPage {
  context: BrowserContext;
  page: Page;
  /** Requests that left the stack's origin (the panel must make none: no telemetry, no CDN). */
  outside: string[];
  /** Uncaught errors of the page. */
  errors: string[];
}

/** A context's time zone and window, when not Tehran's and 1280×800 (a browser set to UTC, a phone). */
export interface ContextOptions {
  timezoneId?: string;
  viewport?: { width: number; height: number };
}

/** A fresh browser context on the stack: its own cookies and storage, Persian, Tehran time, 1280×800 (or `options`). */
export const newContext = (browser: Browser, baseUrl: string, options: ContextOptions = {}): Promise<BrowserContext> =>
  browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    locale: 'fa-IR',
    timezoneId: options.timezoneId ?? 'Asia/Tehran',
  });

/** A new page of `context` that records requests leaving `baseUrl` and the page's uncaught errors. */
export async function openPage(context: BrowserContext, baseUrl: string): Promise<PanelPage> {
  const page = await context.newPage();
  const outside: string[] = [];
  const errors: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(baseUrl) && !request.url().startsWith('data:')) outside.push(request.url());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { context, page, outside, errors };
}

/** A page in a context of its own (signed out). */
export async function newPanelPage(browser: Browser, baseUrl: string): Promise<PanelPage> {
  return openPage(await newContext(browser, baseUrl), baseUrl);
}

/**
 * A context signed in as `username` through `POST /api/admin/login` (the context keeps the session cookie), so
 * every page opened in it starts signed in without going through the login page again.
 */
export async function signedInContext(
  browser: Browser,
  baseUrl: string,
  username: string,
  password: string,
  options: ContextOptions = {},
): Promise<BrowserContext> {
  const context = await newContext(browser, baseUrl, options);
  const login = await context.request.post('/api/admin/login', { data: { username, password } });
  if (login.status() !== 200) throw new Error(`staff login of ${username} failed: ${login.status()} ${await login.text()}`);
  return context;
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

/**
 * Writes docs/admin/<name>.png when ADMIN_SCREENSHOTS=1 (after the fonts are in, so the glyphs are Vazirmatn's),
 * from the top of the page; `fullPage` for a page longer than the window.
 */
export async function screenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.ADMIN_SCREENSHOTS !== '1') return;
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(300); // let MUI's transitions settle
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: options.fullPage ?? false });
}

/** The page reads right to left, in Persian. */
export async function expectRtlPersian(page: Page): Promise<void> {
  const html = await page.evaluate(() => ({ dir: document.documentElement.dir, lang: document.documentElement.lang }));
  expect(html).toEqual({ dir: 'rtl', lang: 'fa' });
}

/** Persian digits of a number (as Intl fa-IR writes them, with its grouping). */
export const faNumber = (n: number): string => n.toLocaleString('fa-IR');
/** `text` with Persian digits, as the Persian panel writes digit strings that are not numbers (a phone number). */
export const faDigits = (text: string): string => text.replace(/[0-9]/g, (d) => String.fromCharCode(0x06f0 + Number(d)));
