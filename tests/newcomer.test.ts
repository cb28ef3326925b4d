/**
 * A newcomer's first hour (issue 27): `npm start` run as a newcomer runs it (this repository's `main.ts` under tsx, a
 * fresh DATA_DIR) says what its first start does, reports a missing Java and a port in use at once in one sentence
 * (no stack trace, nothing slow started first); the engine warnings of `npm install` are the ones the README explains;
 * no doc links outside the repository.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import semver from 'semver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAdminBuilt } from '../packages/local/src/adminBuild';
import { freePort } from '../packages/local/src/dynamo';

const REPO = resolve(import.meta.dirname, '..');
const TSX = join(REPO, 'node_modules', 'tsx', 'dist', 'cli.mjs');

interface Run {
  child: ChildProcess;
  output: () => string;
  exit: Promise<number | null>;
}

const running: ChildProcess[] = [];
afterAll(() => {
  for (const child of running) if (child.exitCode === null) child.kill('SIGKILL');
});

/** `npm start` (main.ts under this Node and tsx), on a fresh DATA_DIR, without the test run's DynamoDB endpoint. */
function npmStart(env: Record<string, string>): Run {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'mathisland-newcomer-')),
    LOG_LEVEL: 'WARN',
    ...env,
  };
  delete childEnv.DYNAMODB_ENDPOINT;
  delete childEnv.NODE_OPTIONS;
  const child = spawn(process.execPath, [TSX, 'packages/local/src/main.ts'], {
    cwd: REPO,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let output = '';
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  return { child, output: () => output, exit: new Promise((r) => child.on('close', r)) };
}

const SLOW_STEPS = /building the staff panel|rebuilding|starting DynamoDB Local|creating the table|ingesting/;

describe('npm start, the first time', () => {
  beforeAll(async () => {
    await ensureAdminBuilt({ quiet: true }); // the panel step is the same Vite build the browser tests make
  }, 180_000);

  it('says each slow step as it begins, then the banner; Ctrl-C stops it', async () => {
    const run = npmStart({ PORT: String(await freePort()) });
    await expect.poll(run.output, { timeout: 150_000, interval: 250 }).toMatch(/http:\/\/localhost:\d+/);
    const output = run.output();
    const steps = [
      'starting DynamoDB Local (Java) on',
      'creating the table',
      'applying the data migrations',
      "ingesting the tutor's seed textbook",
    ];
    const at = steps.map((step) => output.indexOf(step));
    expect(
      at.every((i) => i >= 0),
      output,
    ).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(output.indexOf(steps.at(-1)!)).toBeLessThan(output.search(/http:\/\/localhost:\d+/));
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  }, 180_000);
});

describe('npm start on a machine that cannot run it', () => {
  it('without Java: one sentence saying what to install, exit 1, no stack trace, nothing slow started', async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'mathisland-nojava-'));
    const run = npmStart({ PORT: String(await freePort()), PATH: emptyPath });
    expect(await run.exit).toBe(1);
    const output = run.output();
    expect(output).toContain('startup failed: Java was not found: DynamoDB Local (the local database) needs Java 17 or newer');
    expect(output).not.toMatch(/ENOENT|\n\s+at /);
    expect(output).not.toMatch(SLOW_STEPS);
  }, 60_000);

  describe('with the port in use', () => {
    let holder: Server;
    let port: number;
    beforeAll(async () => {
      holder = createServer();
      await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
      port = (holder.address() as { port: number }).port;
    });
    afterAll(() => new Promise<void>((r) => holder.close(() => r())));

    it('says so before anything slow (no panel build, no DynamoDB Local), exit 1, no stack trace', async () => {
      const run = npmStart({ PORT: String(port) });
      expect(await run.exit).toBe(1);
      const output = run.output();
      expect(output).toContain(`startup failed: port ${port} is in use (another npm start?); stop it or set PORT to another port`);
      expect(output).not.toMatch(SLOW_STEPS);
      expect(output).not.toMatch(/\n\s+at /);
    }, 60_000);
  });
});

describe('npm install on the Node the README asks for', () => {
  const lock = JSON.parse(readFileSync(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const bundledNode = lock.packages['node_modules/node']?.version as string;
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const oldest = /You need Node (\d+)\+/.exec(readme)?.[1];

  it('warns (EBADENGINE) only for packages whose range the bundled Node, which runs every npm script, satisfies', () => {
    expect(oldest).toBeDefined();
    expect(semver.major(bundledNode)).toBeGreaterThan(Number(oldest));
    const warned = Object.entries(lock.packages)
      .map(([path, entry]) => [path || '(the root)', (entry.engines as { node?: string } | undefined)?.node] as const)
      .filter(([, range]) => range && !semver.satisfies(`${oldest}.20.0`, range));
    expect(warned.length).toBeGreaterThan(0);
    for (const [path, range] of warned) expect(semver.satisfies(bundledNode, range as string), `${path} needs ${range}`).toBe(true);
  });

  it('is explained by the README: the warning by name, why it is harmless', () => {
    expect(readme).toContain('npm warn EBADENGINE Unsupported engine');
    expect(readme).toMatch(/every npm script \(`npm start`, `npm test`, \.\.\.\) runs on it/);
  });
});

describe('the documents', () => {
  const docs = [
    'README.md',
    ...readdirSync(join(REPO, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];

  it.each(docs)('%s links nothing outside the repository, and every relative link it has resolves', (doc) => {
    const text = readFileSync(join(REPO, doc), 'utf8');
    expect(text).not.toMatch(/\.\.\/shared|behavior-spec\.md|DESIGN\.md|DESIGN §/);
    const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] as string).filter((l) => !/^(https?:|mailto:|#)/.test(l));
    for (const link of links) {
      const target = resolve(dirname(join(REPO, doc)), link.split('#')[0] as string);
      expect(relative(REPO, target).startsWith('..'), `${doc} links ${link}, outside the repository`).toBe(false);
      expect(existsSync(target), `${doc} links ${link}, which does not exist`).toBe(true);
    }
  });
});
