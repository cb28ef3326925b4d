/**
 * Holding DATA_DIR through its state file (issue 29 §3): a starting `npm start` is visible and waited for, a running
 * one is used, another `npm start` is refused, and state left by a holder that died (or hung while starting) never
 * blocks a later run.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removedAfterAll } from '../../../tests/support/tempDirs';
import {
  acquireDataDir,
  DataDirBusyError,
  type DataDirClaim,
  NPM_START,
  readStackState,
  STARTING_STALE_MS,
  type StackState,
  stackStateFile,
} from './dataDirState';

/** The folders the tests made, removed after the file. */
const removeLater = removedAfterAll();
const newDataDir = () => removeLater(mkdtempSync(join(tmpdir(), 'mathisland-datadir-')));
const script = { useRunning: true, timeoutMs: 5_000, pollMs: 20 };

async function claim(dataDir: string, owner = NPM_START): Promise<DataDirClaim> {
  const acquired = await acquireDataDir(dataDir, owner, { ...script, useRunning: false });
  if (acquired.kind !== 'claimed') throw new Error('expected to claim');
  return acquired.claim;
}

/** A pid no process has any more. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid as number;
}

const writeState = (dataDir: string, state: StackState) => writeFileSync(stackStateFile(dataDir), JSON.stringify(state));

describe('DATA_DIR state', () => {
  it('is "starting" from the claim, "running" with the endpoint once ready, and gone after release', async () => {
    const dataDir = newDataDir();
    const held = await claim(dataDir);
    expect(readStackState(dataDir)).toMatchObject({ owner: NPM_START, pid: process.pid, state: 'starting' });
    held.running({ endpoint: 'http://127.0.0.1:1', tableName: 't', dynamoPid: 7 });
    expect(readStackState(dataDir)).toMatchObject({ state: 'running', endpoint: 'http://127.0.0.1:1', tableName: 't', dynamoPid: 7 });
    held.release();
    expect(existsSync(stackStateFile(dataDir))).toBe(false);
  });

  it('hands a script the running npm start, and refuses a second npm start', async () => {
    const dataDir = newDataDir();
    const held = await claim(dataDir);
    held.running({ endpoint: 'http://127.0.0.1:1', tableName: 't' });
    expect(await acquireDataDir(dataDir, 'npm run createsuperuser', script)).toMatchObject({
      kind: 'running',
      state: { owner: NPM_START, endpoint: 'http://127.0.0.1:1', tableName: 't' },
    });
    await expect(acquireDataDir(dataDir, NPM_START, { ...script, useRunning: false })).rejects.toThrow(
      /another npm start .* already serves/,
    );
    held.release();
  });

  it('makes a script wait while npm start is starting, then use it', async () => {
    const dataDir = newDataDir();
    const held = await claim(dataDir);
    const waits: StackState[] = [];
    const acquiring = acquireDataDir(dataDir, 'npm run createsuperuser', { ...script, onWait: (h) => waits.push(h) });
    await new Promise((r) => setTimeout(r, 200));
    expect(waits).toEqual([expect.objectContaining({ owner: NPM_START, state: 'starting' })]);
    held.running({ endpoint: 'http://127.0.0.1:2', tableName: 't' });
    expect(await acquiring).toMatchObject({ kind: 'running', state: { endpoint: 'http://127.0.0.1:2' } });
    held.release();
  });

  it('lets a waiting npm start claim once the script holding DATA_DIR lets go', async () => {
    const dataDir = newDataDir();
    const held = await claim(dataDir, 'npm run createsuperuser');
    held.running({ endpoint: 'http://127.0.0.1:3', tableName: 't' });
    const acquiring = acquireDataDir(dataDir, NPM_START, { ...script, useRunning: false });
    await new Promise((r) => setTimeout(r, 100));
    held.release();
    expect(await acquiring).toMatchObject({ kind: 'claimed' });
    expect(readStackState(dataDir)).toMatchObject({ owner: NPM_START, state: 'starting' });
  });

  it('refuses clearly when the holder does not finish starting in time', async () => {
    const dataDir = newDataDir();
    const held = await claim(dataDir);
    const refused = acquireDataDir(dataDir, 'npm run createsuperuser', { ...script, timeoutMs: 300 });
    await expect(refused).rejects.toBeInstanceOf(DataDirBusyError);
    await expect(refused).rejects.toThrow(
      new RegExp(
        `npm start \\(pid ${process.pid}\\) has held .* \\(starting\\) .* within 0 s; if it hangs, stop it \\(kill ${process.pid}\\)`,
      ),
    );
    held.release();
  });

  it('replaces the state of a holder that died (kill -9) or has been starting for too long', async () => {
    const gone = newDataDir();
    writeState(gone, {
      owner: NPM_START,
      pid: deadPid(),
      state: 'running',
      since: Date.now(),
      endpoint: 'http://127.0.0.1:4',
      tableName: 't',
    });
    const afterCrash = await acquireDataDir(gone, 'npm run createsuperuser', script);
    expect(afterCrash).toMatchObject({ kind: 'claimed', replaced: expect.stringMatching(/npm start \(pid \d+\) is gone/) });
    expect(readStackState(gone)).toMatchObject({ owner: 'npm run createsuperuser', pid: process.pid });

    // The DynamoDB Local the dead holder left running on the files is stopped first (here a stand-in process).
    const leftover = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)', 'DynamoDBLocal.jar']);
    const left = newDataDir();
    writeState(left, { owner: NPM_START, pid: deadPid(), state: 'running', since: Date.now(), dynamoPid: leftover.pid });
    const exited = new Promise((resolve) => leftover.once('exit', resolve));
    expect(await acquireDataDir(left, NPM_START, { ...script, useRunning: false })).toMatchObject({
      kind: 'claimed',
      replaced: expect.stringContaining(`stopped the DynamoDB Local it left running (pid ${leftover.pid})`),
    });
    await exited;

    const hung = newDataDir();
    writeState(hung, { owner: NPM_START, pid: process.pid, state: 'starting', since: Date.now() - STARTING_STALE_MS - 1 });
    expect(await acquireDataDir(hung, NPM_START, { ...script, useRunning: false })).toMatchObject({
      kind: 'claimed',
      replaced: expect.stringMatching(/has been starting since/),
    });

    const garbage = newDataDir();
    writeFileSync(stackStateFile(garbage), '{"half');
    expect(await acquireDataDir(garbage, NPM_START, { ...script, useRunning: false })).toMatchObject({ kind: 'claimed' });
  });
});
