/** docs/capacity.md as `npm run capacity -- --out docs/capacity.md` writes it (placeholder). */
import type { Analysis } from './model';
import { renderRun } from './report';
import type { Simulation } from './simulate';

export function renderDoc(sim: Simulation, analyses: Analysis[], unsharded: Analysis): string {
  return `# Capacity\n\n${renderRun(sim, [...analyses, unsharded])}\n`;
}
