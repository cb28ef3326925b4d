/**
 * The migration lock (packages/core/src/migrations/apply.ts): two runners racing on one table — two fresh
 * `npm start`s, a deploy's migrate script beside a test — apply each missing migration once between them; a runner
 * that finds the lock taken waits for it; a lock left by a runner that died is taken over when its lease runs out.
 */
import { deleteItem, getItem, ItemKey, putItem } from '@mathisland/core/db';
import { applyMigrations, migrationKey, migrations } from '@mathisland/core/migrations';
import { describe, expect, it } from 'vitest';
import { useStack } from './support/stack';

const LOCK = { pk: 'MIGRATION_LOCK', sk: 'LOCK' };
const lastTwo = migrations.slice(-2).map((m) => m.id);

describe('the migration lock', () => {
  const stack = useStack();
  const forget = async () => {
    for (const id of lastTwo) await deleteItem(stack.deps.db, migrationKey(id));
  };

  it('lets two racing runners apply each missing migration once between them', async () => {
    await forget();
    const [a, b] = await Promise.all([applyMigrations(stack.deps.db), applyMigrations(stack.deps.db)]);
    // One runner applied both; the other waited for the lock and found nothing left to do.
    expect([...a, ...b]).toEqual(lastTwo);
    expect(await getItem(stack.deps.db, LOCK, ItemKey)).toBeUndefined();
  });

  it('waits while another runner holds the lock, and goes on once it is given back', async () => {
    await forget();
    await putItem(stack.deps.db, { ...LOCK, holder: 'another runner', leaseUntil: Date.now() + 60_000 });
    let done = false;
    const running = applyMigrations(stack.deps.db).then((ids) => {
      done = true;
      return ids;
    });
    await new Promise((r) => setTimeout(r, 1_500));
    expect(done).toBe(false);
    await deleteItem(stack.deps.db, LOCK);
    expect(await running).toEqual(lastTwo);
  });

  it('takes over a lock whose holder died (its lease ran out)', async () => {
    await forget();
    await putItem(stack.deps.db, { ...LOCK, holder: 'a runner that died', leaseUntil: Date.now() - 1 });
    expect(await applyMigrations(stack.deps.db)).toEqual(lastTwo);
    expect(await getItem(stack.deps.db, LOCK, ItemKey)).toBeUndefined();
  });

  it('does not touch the lock when nothing is missing', async () => {
    await putItem(stack.deps.db, { ...LOCK, holder: 'another runner', leaseUntil: Date.now() + 60_000 });
    expect(await applyMigrations(stack.deps.db)).toEqual([]);
    await deleteItem(stack.deps.db, LOCK);
  });
});
