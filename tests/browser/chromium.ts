/**
 * Which Chromium the browser tests drive, found without any download at run time, in this order:
 *
 * 1. `CHROMIUM_PATH`, when set (an error when it names no file: a typo should not silently pick another browser);
 * 2. a system Chromium or Chrome, when one is installed at a usual place (Debian's `/usr/bin/chromium`, macOS's
 *    `/Applications/...`, Windows' `Program Files`);
 * 3. the Chromium that `npm install` brought: the `@sparticuz/chromium` package (Linux x64 and arm64), unpacked
 *    once into the temporary directory at its first use.
 *
 * `CHROMIUM_SOURCE=npm` skips 1 and 2, so a run proves that `npm install` alone brings the browser (`.ci/run`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export interface ChromiumChoice {
  /** The browser binary to launch. */
  executablePath: string;
  /** Where it came from, for the setup's message. */
  source: 'CHROMIUM_PATH' | 'system' | 'npm';
}

/** Usual install places of a system Chromium or Chrome, per platform. */
const SYSTEM_BROWSERS: Record<string, string[]> = {
  linux: ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome-stable', '/usr/bin/google-chrome'],
  darwin: ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'],
  win32: [
    join(process.env.PROGRAMFILES ?? 'C:\\Program Files', 'Google\\Chrome\\Application\\chrome.exe'),
    join(process.env['PROGRAMFILES(X86)'] ?? 'C:\\Program Files (x86)', 'Google\\Chrome\\Application\\chrome.exe'),
  ],
};

/**
 * Finds the browser (see the module's doc).
 *
 * @throws Error when `CHROMIUM_PATH` names no file, or when no browser is found and the npm package has none for
 *   this platform (macOS and Windows: set `CHROMIUM_PATH`).
 */
export async function findChromium(env: NodeJS.ProcessEnv = process.env): Promise<ChromiumChoice> {
  const npmOnly = env.CHROMIUM_SOURCE === 'npm';
  if (!npmOnly && env.CHROMIUM_PATH) {
    if (!existsSync(env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${env.CHROMIUM_PATH}: no such file`);
    return { executablePath: env.CHROMIUM_PATH, source: 'CHROMIUM_PATH' };
  }
  if (!npmOnly) {
    const system = (SYSTEM_BROWSERS[process.platform] ?? []).find((path) => existsSync(path));
    if (system) return { executablePath: system, source: 'system' };
  }
  if (process.platform !== 'linux') {
    throw new Error(
      `no Chromium found: the npm package @sparticuz/chromium serves Linux only; set CHROMIUM_PATH to a Chromium or Chrome binary`,
    );
  }
  const { default: packaged } = await import('@sparticuz/chromium');
  return { executablePath: await packaged.executablePath(), source: 'npm' };
}
