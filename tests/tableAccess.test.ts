/**
 * The table-access recorder (tests/support/tableAccess.ts) that proves infra/permissions.ts complete: how a request
 * becomes IAM actions, that an undeclared use is reported, that requests are attributed to the endpoint group their
 * path routes to, and the deploy-time migration job's own declaration (it runs outside any request).
 */
import { randomUUID } from 'node:crypto';
import { createDb, ensureTable } from '@mathisland/core/db';
import { applyMigrations } from '@mathisland/core/migrations';
import { describe, expect, inject, it } from 'vitest';
import { call, useStack } from './support/stack';
import { asFunction, iamUses, undeclared, usesOf } from './support/tableAccess';

describe('IAM actions of a request', () => {
  const command = (name: string, input: Record<string, unknown>) => {
    const Named = { [name]: class {} }[name] as new () => object;
    return Object.assign(new Named(), { input });
  };

  it('authorizes each part of a transaction as its own action, and a query of an index on the index', () => {
    expect(
      iamUses(command('TransactWriteCommand', { TransactItems: [{ Put: {} }, { Update: {} }, { ConditionCheck: {} }, { Delete: {} }] })),
    ).toEqual([
      { action: 'PutItem', resource: 'table' },
      { action: 'UpdateItem', resource: 'table' },
      { action: 'ConditionCheckItem', resource: 'table' },
      { action: 'DeleteItem', resource: 'table' },
    ]);
    expect(iamUses(command('QueryCommand', { IndexName: 'gsi2' }))).toEqual([{ action: 'Query', resource: 'index/gsi2' }]);
    expect(iamUses(command('QueryCommand', {}))).toEqual([{ action: 'Query', resource: 'table' }]);
    expect(iamUses(command('BatchGetCommand', {}))).toEqual([{ action: 'BatchGetItem', resource: 'table' }]);
    expect(iamUses(command('TransactGetCommand', {}))).toEqual([{ action: 'GetItem', resource: 'table' }]);
    expect(iamUses(command('DescribeContinuousBackupsCommand', {}))).toEqual([{ action: 'DescribeContinuousBackups', resource: 'table' }]);
  });

  it('reports what a declaration does not allow', () => {
    expect(
      undeclared([
        { fn: 'curriculum', action: 'Query', resource: 'table' },
        { fn: 'curriculum', action: 'PutItem', resource: 'table' },
        { fn: 'auth', action: 'Query', resource: 'index/gsi1' },
        { fn: 'fallback', action: 'GetItem', resource: 'table' },
      ]),
    ).toEqual(['auth: dynamodb:Query on index/gsi1', 'curriculum: dynamodb:PutItem on table', 'fallback: dynamodb:GetItem on table']);
  });
});

describe('attribution', () => {
  const stack = useStack();

  it('charges a request’s DynamoDB requests to the endpoint group its path routes to', async () => {
    expect((await call(stack, 'GET', '/api/leaderboard?period=weekly')).status).toBe(401);
    expect((await call(stack, 'GET', '/api/health')).status).toBe(200);
    expect(usesOf('health').map((u) => u.action)).toContain('Query');
    expect(usesOf('leaderboard')).toEqual([]);
  });
});

describe('the migration job', () => {
  it('sends only what infra/permissions.ts declares for migrate, on a new table', async () => {
    const db = createDb({ tableName: `migrate-${randomUUID()}`, endpoint: inject('dynamodbEndpoint') });
    try {
      await ensureTable(db);
      await asFunction('migrate', () => applyMigrations(db));
      await asFunction('migrate', () => applyMigrations(db)); // nothing left to apply
      const actions = new Set(usesOf('migrate').map((u) => u.action));
      expect([...actions].sort()).toEqual(expect.arrayContaining(['Query', 'BatchWriteItem']));
      expect(undeclared(usesOf('migrate'))).toEqual([]);
    } finally {
      db.raw.destroy();
    }
  });
});
