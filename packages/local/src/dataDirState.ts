/**
 * Who serves the DynamoDB Local files of a data directory (DATA_DIR, default `.data`), so that two processes never
 * run DynamoDB Local on the same files: `npm start` (stack.ts) and the management scripts (scripts/lib/localTable.ts)
 * hold DATA_DIR through one state file, `DATA_DIR/stack.json`:
 *
 *   `{ owner, pid, state: 'starting' | 'running', since, endpoint?, tableName?, dynamoPid?, settings? }`
 *
 * - Claiming ({@link acquireDataDir}) creates the file exclusively (written beside it, then hard-linked: a reader
 *   never sees half a file, and of two claimants exactly one wins) in state `starting`, before DynamoDB Local starts;
 *   the holder marks it `running` with the endpoint and table once they answer, and removes it when it stops.
 * - A script that finds `npm start` running uses its DynamoDB Local; one that finds it `starting` waits for it
 *   (bounded), and one that finds another script holding DATA_DIR waits for that script to finish. `npm start`
 *   waits for a script, and refuses when another `npm start` holds DATA_DIR.
 * - Stale state: a holder that died without removing the file (kill -9, a crash) is recognized by its pid being
 *   gone, or, for `starting`, by a start older than {@link STARTING_STALE_MS} (a reused pid). Its file is replaced;
 *   a DynamoDB Local it left running on the same files (`dynamoPid`, still answering) is stopped first. So a crash
 *   never blocks a later run.
 *
 * Limit: two processes replacing the same stale file within the same millisecond could both believe they hold it;
 * each removes the stale file only after re-reading it unchanged.
 */
import { existsSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SettingsError } from '@mathisland/core';

/** The state file of `dataDir`. */
export const stackStateFile = (dataDir: string): string => join(dataDir, 'stack.json');

/** What the state file holds (times epoch ms). */
export interface StackState {
  /** `npm start`, or the script (`npm run createsuperuser`, `npm run job:…`). */
  owner: string;
  pid: number;
  state: 'starting' | 'running';
  /** When the state last changed. */
  since: number;
  /** DynamoDB Local's endpoint and the table (running). */
  endpoint?: string;
  tableName?: string;
  /** DynamoDB Local's own process, to stop one a crashed holder left behind. */
  dynamoPid?: number;
  /** Settings `npm start` filled in that scripts need (PUBLIC_BASE_URL, the fake marketplace's; no real secret). */
  settings?: Record<string, string>;
}

/** The owner name of `npm start`. */
export const NPM_START = 'npm start';

/** A `starting` state older than this is stale whatever its pid says (the pid may belong to another process now). */
export const STARTING_STALE_MS = 10 * 60_000;

/** DATA_DIR is held by something that did not let go in time, or by another `npm start`. */
export class DataDirBusyError extends Error {}

/** The state file of `dataDir`, or undefined when there is none (or it is not a state file). */
export function readStackState(dataDir: string): StackState | undefined {
  try {
    const value = JSON.parse(readFileSync(stackStateFile(dataDir), 'utf8')) as StackState;
    return typeof value?.pid === 'number' && typeof value.owner === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether process `pid` runs (EPERM: it does, under another user; a zombie, dead but not yet reaped, does not). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    // Linux: the state letter after the command name in /proc/<pid>/stat; Z is a zombie.
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS): kill(0) is all there is
  }
}

/** Why `state` is stale at `now`, or undefined while its holder is alive (see the module doc). */
export function staleReason(state: StackState, now = Date.now()): string | undefined {
  if (!processAlive(state.pid)) return `${state.owner} (pid ${state.pid}) is gone without removing it`;
  if (state.state === 'starting' && now - state.since > STARTING_STALE_MS) {
    return `${state.owner} (pid ${state.pid}) has been starting since ${new Date(state.since).toISOString()}`;
  }
  return undefined;
}

/** Whether `pid` is a DynamoDB Local (its command line, where the system shows it; elsewhere assumed). */
function isDynamoLocal(pid: number): boolean {
  const cmdline = `/proc/${pid}/cmdline`;
  return !existsSync('/proc') || (existsSync(cmdline) && readFileSync(cmdline, 'utf8').includes('DynamoDBLocal'));
}

/** Stops the DynamoDB Local a dead holder left running on the files (SIGTERM, SIGKILL after 5 s); what it did, or undefined. */
async function stopLeftover(state: StackState): Promise<string | undefined> {
  const pid = state.dynamoPid;
  if (pid === undefined || !processAlive(pid) || !isDynamoLocal(pid)) return undefined;
  // Gone, or a zombie (its command line is empty) once it has exited.
  const running = () => processAlive(pid) && isDynamoLocal(pid);
  process.kill(pid, 'SIGTERM');
  for (let waited = 0; waited < 5000 && running(); waited += 100) await sleep(100);
  if (running()) process.kill(pid, 'SIGKILL');
  return `stopped the DynamoDB Local it left running (pid ${pid})`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Writes `state` as `file` atomically (a temporary file renamed over it, or hard-linked when `exclusive`). */
function writeState(file: string, state: StackState, exclusive: boolean): boolean {
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state)}\n`);
  try {
    if (!exclusive) {
      renameSync(temporary, file);
      return true;
    }
    linkSync(temporary, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** DATA_DIR held by this process. */
export interface DataDirClaim {
  /** Marks it running on `endpoint` with `tableName` (and what scripts should know). */
  running(info: Pick<StackState, 'endpoint' | 'tableName' | 'dynamoPid' | 'settings'>): void;
  /** Lets it go (removes the state file while it is still this process's). */
  release(): void;
}

export type Acquired =
  /** This process holds DATA_DIR; `replaced` says what stale state it replaced. */
  | { kind: 'claimed'; claim: DataDirClaim; replaced?: string }
  /** `npm start` runs on DATA_DIR: use its DynamoDB Local. */
  | { kind: 'running'; state: StackState };

export interface AcquireOptions {
  /** Use a running `npm start` instead of claiming (scripts); otherwise another `npm start` is refused. */
  useRunning: boolean;
  /** How long to wait for a holder that is starting or is a script. */
  timeoutMs: number;
  /** Told once when it starts waiting, with the holder's state. */
  onWait?: (holder: StackState) => void;
  pollMs?: number;
}

/**
 * Claims `dataDir` for `owner` (see the module doc), or finds the running `npm start` (with `useRunning`). Errors:
 * {@link DataDirBusyError} when another `npm start` holds it (without `useRunning`) or a holder did not finish
 * starting or let go within `timeoutMs`.
 */
export async function acquireDataDir(dataDir: string, owner: string, options: AcquireOptions): Promise<Acquired> {
  mkdirSync(dataDir, { recursive: true });
  const file = stackStateFile(dataDir);
  const deadline = Date.now() + options.timeoutMs;
  let waitingFor: StackState | undefined;
  let replaced: string | undefined;
  for (;;) {
    const mine: StackState = { owner, pid: process.pid, state: 'starting', since: Date.now() };
    if (writeState(file, mine, true)) return { kind: 'claimed', claim: claimOf(file, mine), replaced };
    const holder = readStackState(dataDir);
    if (!holder) {
      // Not a state file (or removed meanwhile): an unreadable one is replaced.
      if (existsSync(file) && readStackState(dataDir) === undefined) rmSync(file, { force: true });
      continue;
    }
    const stale = staleReason(holder);
    if (stale) {
      const stopped = await stopLeftover(holder);
      const again = readStackState(dataDir);
      if (again?.pid === holder.pid && again.since === holder.since) rmSync(file, { force: true });
      replaced = `replaced stale state: ${stale}${stopped ? `; ${stopped}` : ''}`;
      continue;
    }
    if (holder.owner === NPM_START) {
      if (holder.state === 'running' && options.useRunning) return { kind: 'running', state: holder };
      if (!options.useRunning) {
        throw new DataDirBusyError(
          `another npm start (pid ${holder.pid}) already serves ${dataDir}: stop it first, or give this one another DATA_DIR`,
        );
      }
    }
    if (Date.now() >= deadline) {
      throw new DataDirBusyError(
        `${holder.owner} (pid ${holder.pid}) has held ${dataDir} (${holder.state}) since ${new Date(holder.since).toISOString()} ` +
          `and did not let go within ${Math.round(options.timeoutMs / 1000)} s; if it hangs, stop it (kill ${holder.pid}) and run this again`,
      );
    }
    if (waitingFor?.pid !== holder.pid || waitingFor.state !== holder.state) options.onWait?.(holder);
    waitingFor = holder;
    await sleep(options.pollMs ?? 250);
  }
}

function claimOf(file: string, mine: StackState): DataDirClaim {
  let current = mine;
  const stillMine = () => {
    try {
      const onDisk = JSON.parse(readFileSync(file, 'utf8')) as StackState;
      return onDisk.pid === current.pid && onDisk.since === current.since;
    } catch {
      return false;
    }
  };
  return {
    running(info) {
      const next: StackState = { ...current, ...info, state: 'running', since: Date.now() };
      if (stillMine()) writeState(file, next, false);
      current = next;
    },
    release() {
      if (stillMine()) rmSync(file, { force: true });
    },
  };
}

/**
 * Claims `dataDir` for `npm start` before its DynamoDB Local starts: waits up to 2 minutes for a script holding it,
 * notes replaced stale state in `warnings`. Errors: `SettingsError` (so `npm start` prints it and exits 1) when
 * another `npm start` holds it, or a script did not let go in time.
 */
export async function claimForNpmStart(dataDir: string, warnings: string[]): Promise<DataDirClaim> {
  const acquired = await acquireDataDir(dataDir, NPM_START, {
    useRunning: false,
    timeoutMs: 120_000,
    onWait: (holder) => console.log(`waiting for ${holder.owner} (pid ${holder.pid}) to finish with ${dataDir}...`),
  }).catch((error) => {
    throw error instanceof DataDirBusyError ? new SettingsError(error.message) : error;
  });
  if (acquired.kind !== 'claimed') throw new SettingsError(`another npm start already serves ${dataDir}`);
  if (acquired.replaced) warnings.push(`${dataDir}: ${acquired.replaced}`);
  return acquired.claim;
}
