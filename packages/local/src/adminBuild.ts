/**
 * The staff panel's build for the local runtime (DESIGN §9): where the workspace and its build are, whether the build
 * is fresh, and building it with the workspace's own script. `npm start` (main.ts) builds it when missing or stale;
 * the browser tests' setup does the same.
 *
 * A build made with NODE_ENV other than `production` (vitest and SST's offline synthesis set `test`) is React's
 * development build: twice the size, slow, with development warnings. The build here always sets `production`, and
 * a development build found in `dist/` (from `vite build` under such a NODE_ENV) counts as not fresh, so `npm start`
 * never serves one.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatedIsFresh } from '../../admin/scripts/generate';

/** The staff panel's workspace and its build (its `dist/` mirrors the URL space: `dist/admin/` is `/admin/`). */
export const ADMIN_DIR = fileURLToPath(new URL('../../admin/', import.meta.url));
export const ADMIN_DIST = join(ADMIN_DIR, 'dist', 'admin');
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/**
 * Whether a built panel (`dist`: its `index.html` and `assets/`) is React's development build: its entry chunk
 * calls `jsxDEV` (the development JSX runtime), which a production build never contains.
 */
export function isDevelopmentBuild(dist: string): boolean {
  const index = readFileSync(join(dist, 'index.html'), 'utf8');
  const entries = [...index.matchAll(/<script[^>]+src="[^"]*\/(assets\/[^"]+\.js)"/g)].map((m) => join(dist, m[1] as string));
  return entries.some((file) => existsSync(file) && readFileSync(file, 'utf8').includes('jsxDEV'));
}

/**
 * Whether the panel's build is there, production, and newer than its sources and the view of the API it was built
 * with (the workspace's: generated from the API description into `.generated/`) newer than the API's own sources (`development`: a
 * development build, see the module doc). `adminDir`/`dist` default to the workspace's.
 */
export function adminBuildState(adminDir = ADMIN_DIR, dist = ADMIN_DIST): 'missing' | 'stale' | 'development' | 'fresh' {
  const index = join(dist, 'index.html');
  if (!existsSync(index)) return 'missing';
  if (adminDir === ADMIN_DIR && !generatedIsFresh()) return 'stale';
  const sources = Math.max(...['src', 'index.html', 'vite.config.ts', 'package.json'].map((name) => newestMtime(join(adminDir, name))));
  if (sources > statSync(index).mtimeMs) return 'stale';
  return isDevelopmentBuild(dist) ? 'development' : 'fresh';
}

/**
 * Builds the staff panel with its workspace's build script (`npm run build -w packages/admin`, Vite, a few
 * seconds; NODE_ENV=production whatever the caller's) unless the build is fresh (or `force`). `quiet` keeps Vite's
 * output for the error only.
 */
export async function ensureAdminBuilt(options: { force?: boolean; quiet?: boolean } = {}): Promise<'built' | 'fresh'> {
  if (!options.force && adminBuildState() === 'fresh') return 'fresh';
  // Under npm, npm_execpath is npm's own script: run it with this Node.
  const execpath = process.env.npm_execpath;
  const script = ['run', 'build', '-w', 'packages/admin'];
  const [command, args] = execpath?.endsWith('.js') ? [process.execPath, [execpath, ...script]] : ['npm', script];
  const output: Buffer[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: options.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => output.push(chunk));
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`building the staff panel failed (exit ${code})\n${Buffer.concat(output).toString()}`);
  return 'built';
}
