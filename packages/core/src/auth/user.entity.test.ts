/**
 * The user item's typed update builders (user.entity.ts): the request they build, and that no other file of the
 * domain writes the user item with an update expression of its own (a new field means one place: the schema).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDb } from '../db/client';
import { mergeUserChanges, updateUser, userCondition } from './user.entity';

const db = createDb({ tableName: 't', endpoint: 'http://no-database.invalid' });

describe('updateUser', () => {
  it('builds SET, ADD and REMOVE from typed fields, every name as #field, values apart from the condition’s', () => {
    const item = updateUser(
      db,
      7,
      { set: { hearts: 4, heartsUpdatedAt: 1000 }, add: { answeredCount: 1 }, remove: ['heartsEmptyAt'] },
      userCondition.all(userCondition.exists(), userCondition.is({ hearts: 5 })),
    );
    expect(item.Update).toMatchObject({
      Key: { pk: 'USER#7', sk: 'PROFILE' },
      UpdateExpression:
        'SET #hearts = :u_hearts, #heartsUpdatedAt = :u_heartsUpdatedAt ADD #answeredCount :u_answeredCount REMOVE #heartsEmptyAt',
      ConditionExpression: '(attribute_exists(pk)) AND (#hearts = :c_hearts)',
      ExpressionAttributeValues: { ':u_hearts': 4, ':u_heartsUpdatedAt': 1000, ':u_answeredCount': 1, ':c_hearts': 5 },
    });
    expect(item.Update?.ExpressionAttributeNames).toEqual({
      '#hearts': 'hearts',
      '#heartsUpdatedAt': 'heartsUpdatedAt',
      '#answeredCount': 'answeredCount',
      '#heartsEmptyAt': 'heartsEmptyAt',
    });
  });

  it('conditions on absence, on another value, on a number below, and on the subscription as read', () => {
    expect(updateUser(db, 1, { set: { referralCode: 'ab' } }, userCondition.lacks('referralCode')).Update?.ConditionExpression).toBe(
      'attribute_not_exists(#referralCode)',
    );
    const item = updateUser(db, 1, { set: { boardWeek: '2026-11-21' } }, userCondition.isNot('boardWeek', '2026-11-21'));
    expect(item.Update).toMatchObject({
      ConditionExpression: 'attribute_not_exists(#boardWeek) OR #boardWeek <> :not_boardWeek',
      ExpressionAttributeNames: { '#boardWeek': 'boardWeek' },
      ExpressionAttributeValues: { ':not_boardWeek': '2026-11-21', ':u_boardWeek': '2026-11-21' },
    });
    // In a composition, `all` adds the only parentheses (DynamoDB refuses doubled ones).
    expect(userCondition.all(userCondition.isNot('boardWeek', 'w'), userCondition.exists()).expression).toBe(
      '(attribute_not_exists(#boardWeek) OR #boardWeek <> :not_boardWeek) AND (attribute_exists(pk))',
    );
    const below = userCondition.below('notificationsReadUpTo', 9);
    expect(below).toEqual({
      expression: 'attribute_not_exists(#notificationsReadUpTo) OR #notificationsReadUpTo < :below_notificationsReadUpTo',
      values: { ':below_notificationsReadUpTo': 9 },
    });
    // DynamoDB refuses doubled parentheses ("redundant parentheses"): `all` adds the only pair.
    expect(
      updateUser(db, 1, { set: { notificationsReadUpTo: 9 } }, userCondition.all(userCondition.exists(), below)).Update
        ?.ConditionExpression,
    ).toBe(
      '(attribute_exists(pk)) AND (attribute_not_exists(#notificationsReadUpTo) OR #notificationsReadUpTo < :below_notificationsReadUpTo)',
    );
    const pinned = userCondition.subscriptionAsRead({ planId: 1, planTitle: 'p', aiDailyQuota: 4, expiresAt: 5, storeUntil: 3 });
    expect(pinned).toEqual({
      expression: '#subscription.expiresAt = :prevExpires AND #subscription.storeUntil = :prevStoreUntil',
      values: { ':prevExpires': 5, ':prevStoreUntil': 3 },
    });
    expect(userCondition.subscriptionAsRead(undefined).expression).toBe('attribute_not_exists(#subscription)');
  });

  it('refuses a change that changes nothing, and merging one field twice', () => {
    expect(() => updateUser(db, 1, {})).toThrow('changes nothing');
    expect(mergeUserChanges({ add: { xp: 5 } }, { set: { weekXp: 5 } }, undefined)).toEqual({
      set: { weekXp: 5 },
      add: { xp: 5 },
      remove: [],
    });
    expect(() => mergeUserChanges({ add: { xp: 5 } }, { set: { xp: 6 } })).toThrow('xp changed twice');
  });
});

describe('the user item’s writers', () => {
  const root = join(import.meta.dirname, '..');
  const sources = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
    );

  it('build no update expression of it outside user.entity.ts', () => {
    const handBuilt = sources(root)
      .filter((file) => !file.endsWith('user.entity.ts'))
      .filter((file) => /\b(update|updateItem)\(\s*[\w.]+,\s*userKey\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file));
    expect(handBuilt).toEqual([]);
  });
});
