/**
 * Figures for docs/reliability.md (`npm run reliability`, scripts/reliability.ts): when RELIABILITY_DIR is set, a
 * test adds its counts (faults injected, requests made during an outage, ...) to `<RELIABILITY_DIR>/<name>.json`.
 * Without it nothing is written.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Adds `counts` to the figures file `name` (numbers are summed with what is there). */
export function addFigures(name: string, counts: Record<string, number>): void {
  const dir = process.env.RELIABILITY_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.json`);
  const before: Record<string, number> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  for (const [k, v] of Object.entries(counts)) before[k] = (before[k] ?? 0) + v;
  writeFileSync(file, `${JSON.stringify(before, null, 2)}\n`);
}
