/**
 * `npx tsx scripts/table-access-report.ts <dir>`: what each deployed function was seen sending to the table during a
 * test run, next to its declaration in infra/permissions.ts. Record a run first:
 *
 *   TABLE_ACCESS_OUT=.data/table-access npx vitest run --project api
 *
 * (tests/support/tableAccess.ts writes one JSON file per test file there.) Per function it prints the undeclared uses
 * (which fail the run: add them to the declaration) and the declared actions never seen (candidates to remove, after
 * checking that no code path the tests miss, or a cache shared locally, needs them).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type FunctionName, functionAccess } from '../infra/permissions';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx scripts/table-access-report.ts <dir written by TABLE_ACCESS_OUT>');
  process.exit(2);
}

const seen = new Map<string, Set<string>>();
for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  for (const use of JSON.parse(readFileSync(join(dir, file), 'utf8')) as Array<{ fn: string; action: string; resource: string }>) {
    const grants = seen.get(use.fn) ?? new Set<string>();
    grants.add(use.resource === 'table' ? use.action : `Query on ${use.resource}`);
    seen.set(use.fn, grants);
  }
}

for (const fn of Object.keys(functionAccess).sort() as FunctionName[]) {
  const access = functionAccess[fn];
  const declared = new Set<string>([...access.table, ...access.indexes.map((i) => `Query on index/${i}`)]);
  const observed = seen.get(fn) ?? new Set<string>();
  const undeclared = [...observed].filter((g) => !declared.has(g)).sort();
  const unseen = [...declared].filter((g) => !observed.has(g)).sort();
  console.log(`${fn}: seen ${[...observed].sort().join(', ') || 'nothing'}`);
  if (undeclared.length) console.log(`  UNDECLARED: ${undeclared.join(', ')}`);
  if (unseen.length) console.log(`  declared, not seen: ${unseen.join(', ')}`);
}
for (const fn of [...seen.keys()].filter((f) => !(f in functionAccess))) console.log(`${fn}: NO DECLARATION in infra/permissions.ts`);
