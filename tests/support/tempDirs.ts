/**
 * Folders a test file makes and leaves to the end (temporary data folders, the CDK's cloud assemblies of a
 * synthesized app, tens of MB each), removed after the file's tests: `const removeLater = removedAfterAll()` at the
 * top of the file or of a `describe`, then `removeLater(dir)`, which returns `dir`.
 */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';

export function removedAfterAll(): (dir: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  return (dir) => {
    dirs.push(dir);
    return dir;
  };
}
