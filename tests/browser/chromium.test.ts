/** The browser tests' choice of Chromium (chromium.ts): the order of CHROMIUM_PATH, a system browser and npm's. */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { findChromium } from './chromium';

describe('findChromium', () => {
  it('takes CHROMIUM_PATH first, when it names a file', async () => {
    // Prepare: any existing file stands in for a browser binary.
    const path = process.execPath;
    // Act
    const choice = await findChromium({ CHROMIUM_PATH: path });
    // Assess
    expect(choice).toEqual({ executablePath: path, source: 'CHROMIUM_PATH' });
  });

  it('refuses a CHROMIUM_PATH that names no file instead of picking another browser', async () => {
    await expect(findChromium({ CHROMIUM_PATH: '/nowhere/chromium' })).rejects.toThrow('no such file');
  });

  it('with CHROMIUM_SOURCE=npm, ignores CHROMIUM_PATH and system browsers and unpacks the npm package', async () => {
    const choice = await findChromium({ CHROMIUM_SOURCE: 'npm', CHROMIUM_PATH: process.execPath });
    expect(choice.source).toBe('npm');
    expect(existsSync(choice.executablePath)).toBe(true);
  });
});
