/**
 * One test file's panel fixture: a local stack on a manual clock at `now`, the browser, a superuser `root` signed in
 * (its context), more signed-in contexts on demand (another time zone, a phone's window), and pages that close after
 * each test; everything closes after the file.
 */
import { randomUUID } from 'node:crypto';
import { createStaff } from '@mathisland/core/admin';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startTestStack, type TestStack } from '../support/stack';
import { type ContextOptions, launchBrowser, openPage, type PanelPage, signedInContext } from './support';

export interface PanelFixture {
  stack: TestStack;
  browser: Browser;
  /** The superuser `root`'s context. */
  root: BrowserContext;
  /** `root`'s password. */
  password: string;
  /** A new context of `root` with `options` (closed after the file). */
  rootContext(options: ContextOptions): Promise<BrowserContext>;
  /** A page of `context` (root's by default), closed after the test. */
  pageOf(context?: BrowserContext): Promise<PanelPage>;
}

/** Registers the hooks of the file's fixture (see the module's doc); its fields are there once `beforeAll` has run. */
export function usePanelFixture(now: number): PanelFixture {
  const password = `pw-${randomUUID()}`;
  const opened: PanelPage[] = [];
  const fixture = { password } as PanelFixture;
  beforeAll(async () => {
    [fixture.stack, fixture.browser] = await Promise.all([startTestStack({ now }), launchBrowser()]);
    await createStaff(fixture.stack.deps.db, fixture.stack.clock, { username: 'root', password, isSuperuser: true });
    fixture.root = await signedInContext(fixture.browser, fixture.stack.baseUrl, 'root', password);
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((p) => p.page.close()));
  });
  afterAll(async () => {
    await fixture.browser?.close();
    await fixture.stack?.close();
  });
  fixture.rootContext = (options) => signedInContext(fixture.browser, fixture.stack.baseUrl, 'root', password, options);
  fixture.pageOf = async (context = fixture.root) => {
    const page = await openPage(context, fixture.stack.baseUrl);
    opened.push(page);
    return page;
  };
  return fixture;
}
