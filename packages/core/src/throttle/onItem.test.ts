/**
 * hitOnItem's decisions on each answer DynamoDB can give (throttle/onItem.ts), with a scripted client: the
 * refusals tell a full window, a failed guard and a stale slot apart from the item handed back, and writes
 * refused while a transaction holds the item are tried again. The same rules against DynamoDB Local, through the
 * routes: tests/throttle.test.ts.
 */
import { marshall } from '@aws-sdk/util-dynamodb';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../errors';
import { fakeDeps } from '../testing';
import { hitOnItem, SLOTS } from './onItem';

const NOW = Date.UTC(2026, 10, 18, 8, 10); // 10 minutes into an hour-long window
const START = Date.UTC(2026, 10, 18, 8, 0) / 1000;
const BASE = START * 1_000_000;
const RULE = { limit: 3, windowSeconds: 3600, by: 'user' as const };
const SLOT = `thr#hearts#${(START / 3600) % SLOTS}`;
const KEY = { pk: 'USER#1', sk: 'PROFILE' };
const guard = {
  condition: 'sessionId = :sid',
  values: { ':sid': 's1' },
  holds: (item: Record<string, unknown> | undefined) => item?.sessionId === 's1',
};

/** Deps whose client answers each UpdateItem with the next of `answers` and records the inputs. */
function scripted(answers: Array<Record<string, unknown> | Error>) {
  const deps = fakeDeps({ now: NOW });
  const sent: Array<{ UpdateExpression: string; ConditionExpression: string; ExpressionAttributeValues: Record<string, unknown> }> = [];
  (deps.db.doc as unknown as { send: (command: { input: never }) => Promise<unknown> }).send = async (command) => {
    sent.push(command.input);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    if (next instanceof Error) throw next;
    return { Attributes: next };
  };
  return { deps, sent };
}
const refused = (item?: Record<string, unknown>) =>
  Object.assign(new Error('refused'), { name: 'ConditionalCheckFailedException', ...(item ? { Item: marshall(item) } : {}) });
const conflict = () => Object.assign(new Error('conflict'), { name: 'TransactionConflictException' });

describe('hitOnItem', () => {
  it('counts in one UpdateItem and hands back the item after it', async () => {
    const { deps, sent } = scripted([{ ...KEY, sessionId: 's1', [SLOT]: BASE + 1 }]);
    expect(await hitOnItem(deps, KEY, 'hearts', RULE, guard)).toMatchObject({ sessionId: 's1' });
    expect(sent).toHaveLength(1);
    expect(sent[0]?.UpdateExpression).toMatch(/^SET #slot = if_not_exists\(#slot, :base\) \+ :one REMOVE (#o\d+, ){9}#o\d+$/);
    expect(sent[0]?.ExpressionAttributeValues).toMatchObject({ ':base': BASE, ':full': BASE + RULE.limit, ':sid': 's1' });
  });

  it('refuses a full window with throttled and the seconds to its end', async () => {
    const { deps, sent } = scripted([refused({ ...KEY, sessionId: 's1', [SLOT]: BASE + RULE.limit })]);
    const error = await hitOnItem(deps, KEY, 'hearts', RULE, guard).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect(error).toMatchObject({ code: 'throttled' });
    expect((error as DomainError).extra).toMatchObject({ retryAfter: 3000 });
    expect(sent).toHaveLength(1);
  });

  it('answers undefined when the guard fails or the item is gone, counting nothing', async () => {
    expect(await hitOnItem(scripted([refused({ ...KEY, sessionId: 'other' })]).deps, KEY, 'hearts', RULE, guard)).toBeUndefined();
    expect(await hitOnItem(scripted([refused()]).deps, KEY, 'hearts', RULE, guard)).toBeUndefined();
  });

  it('restarts a stale slot with a second conditional write, and counts again when a concurrent hit restarted it first', async () => {
    const stale = BASE - SLOTS * 3600 * 1_000_000 + 2;
    const { deps, sent } = scripted([
      refused({ ...KEY, sessionId: 's1', [SLOT]: stale }),
      refused({ ...KEY, sessionId: 's1', [SLOT]: BASE + 1 }),
      { ...KEY, sessionId: 's1', [SLOT]: BASE + 2 },
    ]);
    expect(await hitOnItem(deps, KEY, 'hearts', RULE, guard)).toMatchObject({ [SLOT]: BASE + 2 });
    expect(sent.map((s) => s.UpdateExpression.split(' REMOVE')[0])).toEqual([
      'SET #slot = if_not_exists(#slot, :base) + :one',
      'SET #slot = :first',
      'SET #slot = if_not_exists(#slot, :base) + :one',
    ]);
    expect(sent[1]?.ExpressionAttributeValues).toMatchObject({ ':first': BASE + 1, ':stale': stale });
  });

  it('tries again while a transaction holds the item, then gives up with database_busy', async () => {
    const ok = scripted([conflict(), conflict(), { ...KEY, sessionId: 's1', [SLOT]: BASE + 1 }]);
    expect(await hitOnItem(ok.deps, KEY, 'hearts', RULE, guard)).toBeDefined();
    expect(ok.sent).toHaveLength(3);
    const busy = scripted([conflict(), conflict(), conflict(), conflict()]);
    await expect(hitOnItem(busy.deps, KEY, 'hearts', RULE, guard)).rejects.toMatchObject({ code: 'database_busy' });
    expect(busy.sent).toHaveLength(4);
  });
});

describe('hitOnItem with a limit beyond what a slot holds', () => {
  it('counts up to 999,999 hits a window (the bench sets limits of 100,000,000)', async () => {
    const { deps, sent } = scripted([{ ...KEY, sessionId: 's1', [SLOT]: BASE + 1 }]);
    expect(await hitOnItem(deps, KEY, 'hearts', { ...RULE, limit: 100_000_000 }, guard)).toBeDefined();
    expect(sent[0]?.ExpressionAttributeValues).toMatchObject({ ':full': BASE + 999_999 });
  });
});
