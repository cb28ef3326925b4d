/**
 * The API description's two viewers in Chromium (DESIGN §10; issue 12): Swagger UI at `/api/docs/` and Redoc at
 * `/api/redoc/` render the service's own OpenAPI document for a signed-in staff member, with every asset from the
 * service itself: any request to another host fails the test (no CDN, no fonts from the web, no telemetry). Without
 * a session the three URLs answer 401 JSON; without `view_apidocs` 403. `ADMIN_SCREENSHOTS=1` rewrites
 * docs/apidocs/*.png.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createStaff } from '@mathisland/core/admin';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../infra/routes';
import { startTestStack, type TestStack } from '../support/stack';
import { launchBrowser, newPanelPage, type PanelPage, signInOnPage } from './support';

const password = `pw-${randomUUID()}`;
const SCREENSHOT_DIR = join(import.meta.dirname, '../../docs/apidocs');

let stack: TestStack;
let browser: Browser;
const open: PanelPage[] = [];

beforeAll(async () => {
  [stack, browser] = await Promise.all([startTestStack(), launchBrowser()]);
  await createStaff(stack.deps.db, stack.clock, { username: 'docs-admin', password, isSuperuser: true });
  await createStaff(stack.deps.db, stack.clock, { username: 'app-developer', password, isSuperuser: false, permissions: ['view_apidocs'] });
  await createStaff(stack.deps.db, stack.clock, { username: 'clerk', password, isSuperuser: false, permissions: ['view_order'] });
});

afterAll(async () => {
  await Promise.all(open.map((p) => p.context.close()));
  await browser?.close();
  await stack?.close();
});

async function tab(): Promise<PanelPage> {
  const p = await newPanelPage(browser, stack.baseUrl);
  open.push(p);
  return p;
}

/** A tab signed in through the API's own login (the cookie the panel gets: `Path=/api`). */
async function signedInTab(username: string): Promise<PanelPage> {
  const p = await tab();
  const res = await p.context.request.post('/api/admin/login', { data: { username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return p;
}

async function shoot(page: Page, name: string): Promise<void> {
  if (process.env.ADMIN_SCREENSHOTS !== '1') return;
  await page.waitForTimeout(500); // let the viewers lay out
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`) });
}

describe('without an admin session', () => {
  it.each(['/api/schema/', '/api/docs/', '/api/redoc/'])('%s answers 401 JSON, nothing rendered', async (path) => {
    const { page, outside } = await tab();
    const response = await page.goto(path);
    expect(response?.status()).toBe(401);
    expect(response?.headers()['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse((await response?.text()) ?? '{}')).toMatchObject({ code: 'not_authenticated' });
    expect(outside).toEqual([]);
  });

  it('a staff member without view_apidocs gets 403', async () => {
    const { page } = await signedInTab('clerk');
    for (const path of ['/api/schema/', '/api/docs/', '/api/redoc/']) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(403);
      expect(JSON.parse((await response?.text()) ?? '{}')).toMatchObject({ code: 'permission_denied' });
    }
  });
});

describe('with an admin session', () => {
  it('Swagger UI renders the document from the service alone, after signing in through the panel', async () => {
    const { page, outside, errors } = await tab();
    await signInOnPage(page, 'docs-admin', password);
    const started = Date.now();
    await page.goto('/api/docs/');
    await expect.poll(() => page.locator('.swagger-ui .info .title').textContent()).toContain('mathisland API');
    await expect.poll(() => page.locator('.opblock').count(), { timeout: 60_000 }).toBe(routes.length);
    // The figure docs/performance.md quotes (issue 27: 18 s for the 508 kB document of inlined schemas).
    console.log(`Swagger UI listed all ${routes.length} operations in ${Date.now() - started} ms`);
    // An operation opens with its responses and error codes.
    await page.locator('#operations-learning-postApiQuestionsIdAnswer .opblock-summary').click();
    await expect.poll(() => page.locator('#operations-learning-postApiQuestionsIdAnswer').textContent()).toContain('node_locked');
    await page.locator('#operations-learning-postApiQuestionsIdAnswer .opblock-summary').click();
    await page.evaluate(() => window.scrollTo(0, 0));
    await shoot(page, 'swagger-ui');
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('Redoc renders the document from the service alone, its CDN logo included', async () => {
    const { page, outside, errors } = await signedInTab('app-developer');
    await page.goto('/api/redoc/');
    await expect.poll(() => page.locator('h1').first().textContent()).toContain('mathisland API');
    await expect.poll(() => page.getByText('Answer a question; checked and recorded on the server.').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('API docs by Redocly').count()).toBe(1);
    await page.waitForLoadState('networkidle');
    await shoot(page, 'redoc');
    // Redoc's search index runs in a worker made from a blob of this origin: not an outside request.
    expect(outside.filter((url) => !url.startsWith(`blob:${stack.baseUrl}/`))).toEqual([]);
    expect(errors).toEqual([]);
  });
});
