/**
 * The browser project's setup: the staff panel's build (made here when missing or older than its sources, as
 * `npm start` does) and the Chromium the tests drive (`chromium.ts`: CHROMIUM_PATH, a system one, else the one
 * `npm install` brought; never a download), handed to the test files as `inject('chromiumPath')`.
 */
import type { TestProject } from 'vitest/node';
import { ensureAdminBuilt } from '../../packages/local/src/stack';
import { findChromium } from './chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    chromiumPath: string;
  }
}

export default async function setup(project: TestProject) {
  const [browser] = await Promise.all([findChromium(), ensureAdminBuilt({ quiet: true })]);
  console.log(`browser tests: Chromium from ${browser.source} (${browser.executablePath})`);
  project.provide('chromiumPath', browser.executablePath);
}
