/**
 * Global setup of the `stacks` test project: synthesizes the stage `test` once, the way `sst deploy` builds it
 * (every function bundled with esbuild, the staff panel built with Vite), into `.sst/test-dist/`, and hands the
 * directory to the test files (`inject('stacksOutdir')`, support.ts). Bundling is the slow part; doing it once per
 * run keeps the project well under two minutes. `STACKS_REUSE=1` reuses the previous run's assembly (while editing
 * tests only).
 */
import { existsSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { synthesize } from '../synth';
import { BASE_STAGE, baseEnv, setEnv } from './support';

export default async function setup(project: TestProject) {
  const outdir = resolve('.sst', 'test-dist');
  project.provide('stacksOutdir', outdir);
  if (process.env.STACKS_REUSE === '1' && existsSync(resolve(outdir, 'manifest.json'))) return;
  rmSync(outdir, { recursive: true, force: true });
  const restore = setEnv(baseEnv);
  try {
    await synthesize({ stage: BASE_STAGE, mode: 'deploy', outdir });
  } finally {
    restore();
  }
}
