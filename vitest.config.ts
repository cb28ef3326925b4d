/**
 * Test projects:
 * - `unit`: pure domain tests beside the code (packages/*\/src/**\/*.test.ts), no database. Its global setup
 *   generates the staff panel's view of the API (packages/admin/scripts/generate.ts) when missing or stale.
 * - `api`: black-box tests of the HTTP API through the local runtime against DynamoDB Local (tests/).
 *   One DynamoDB Local serves the whole run (tests/support/globalSetup.ts); every test file gets its own
 *   table and server. tests/support/tableAccess.ts checks every DynamoDB request against infra/permissions.ts
 *   (also in `browser`).
 * - `stacks`: the SST stacks synthesized offline and asserted (stacks/test/): the stage `test` once per run (its
 *   global setup), variants (production, a custom domain, an alarm topic) by the files that need them.
 * - `browser`: the staff panel (packages/admin) in Chromium (tests/browser/chromium.ts: CHROMIUM_PATH, a system one, else
 *   the one npm install brought) through playwright-core, headless, against
 *   a real local stack per test file (tests/browser/). Its global setup also builds the panel when its build is
 *   missing or older than its sources. `ADMIN_SCREENSHOTS=1` rewrites docs/admin/*.png.
 */
import { defineConfig } from 'vitest/config';

/**
 * The business metrics (packages/core/src/metrics.ts) print one EMF line per count; the tests turn them off
 * (Powertools' own switch). tests/metrics.test.ts and the emitter's unit test turn them on to read them.
 */
const QUIET_METRICS = { POWERTOOLS_METRICS_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['packages/*/src/**/*.test.ts'],
          // The staff panel's modules import types and facts generated from the API description.
          globalSetup: ['packages/admin/scripts/testSetup.ts'],
          env: QUIET_METRICS,
        },
      },
      {
        test: {
          name: 'api',
          env: QUIET_METRICS,
          include: ['tests/**/*.test.ts'],
          exclude: ['tests/browser/**'],
          globalSetup: ['tests/support/globalSetup.ts'],
          setupFiles: ['tests/support/tableAccess.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'browser',
          env: QUIET_METRICS,
          include: ['tests/browser/**/*.test.ts'],
          globalSetup: ['tests/support/globalSetup.ts', 'tests/browser/globalSetup.ts'],
          setupFiles: ['tests/support/tableAccess.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // A page renders in well under a second on an idle machine, but CI and a busy machine share two cores
          // between Chromium, DynamoDB Local and the service: poll the page for up to 20 s before failing.
          expect: { poll: { timeout: 20_000, interval: 100 } },
        },
      },
      {
        test: {
          name: 'stacks',
          include: ['stacks/test/**/*.test.ts'],
          globalSetup: ['stacks/test/globalSetup.ts'],
          // The files share their workers' module cache: aws-cdk-lib, sst and the stacks load once per worker.
          isolate: false,
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
