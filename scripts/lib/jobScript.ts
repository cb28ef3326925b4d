/**
 * One run of a scheduled job from the command line (`npm run job:<name> [-- --aws]`), shared by the `job:*` scripts:
 * settings from `.env` and the environment over those the running `npm start` published, the table of
 * {@link openTable} (it says which table and endpoint it used), and off AWS what `npm start` generated into DATA_DIR
 * ({@link localScriptEnv}: SECRET_KEY, the fake marketplace's secret). Prints `<label> on <where>: <result as JSON>`,
 * or exits 1 with the message (a bad setting, a failed run: the job's log lines above say which).
 */
import { existsSync } from 'node:fs';
import { buildDeps, type Deps, loadSettings } from '@mathisland/core';
import { closeTable, localScriptEnv, type OpenedTable, openTable } from './localTable';

/** Runs `job` once as `npm run job:<name>` (see the module doc); `label` starts the printed line. */
export async function runJobScript(name: string, label: string, job: (deps: Deps) => Promise<unknown>): Promise<void> {
  if (existsSync('.env')) process.loadEnvFile('.env');
  let opened: OpenedTable | undefined;
  try {
    const base = loadSettings();
    opened = await openTable(base, { script: `job:${name}`, aws: process.argv.includes('--aws') });
    const result = await job(buildDeps(loadSettings(localScriptEnv(opened, base.dataDir)), { db: opened.db }));
    console.log(`${label} on ${opened.where}: ${JSON.stringify(result)}`);
  } catch (error) {
    console.error(`job:${name}: ${(error as Error).message}`);
    process.exitCode = 1;
  } finally {
    await closeTable(opened);
  }
}
