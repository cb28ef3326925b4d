/**
 * Account deletion (issue 3 §6): a fresh code verified as at login; the account is gone (tokens dead, off
 * the leaderboard); a new login with that phone makes a new user; payment records stay; demo accounts are
 * refused.
 */
import { deleteAccount } from '@mathisland/core/account';
import { getUser, phoneKey, type User } from '@mathisland/core/auth';
import { getItem, ItemKey, putItem, queryAll } from '@mathisland/core/db';
import { OVERALL_BOARD, weeklyBoard, xpHistogram } from '@mathisland/core/leaderboard';
import { describe, expect, it } from 'vitest';
import { allNodes, playNode } from './support/content';
import { call, lastCode, newPhone, signIn, useStack } from './support/stack';

const demoPhone = '09990000001';

describe('account deletion', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0), env: { FIXED_OTP_LOGINS: `${demoPhone}:1234` } });

  it('deletes the account after a fresh code; the phone then signs in as a new user', async () => {
    const s = stack;
    const learner = await signIn(s);
    const t = learner.accessToken;
    await playNode(s, t, allNodes()[0]!);
    await call(s, 'POST', '/api/tickets', { token: t, body: { subject: 'Hi', text: 'Hello' } });
    const before = await call(s, 'GET', '/api/leaderboard?period=overall', { token: t });
    expect(before.body.me.rank).toBe(1);
    const { db } = s.deps;
    // A payment record in the learner's partition stands for what the payments domain keeps.
    await putItem(db, { pk: `USER#${learner.userId}`, sk: 'ORDER#000001', amount: 1 });

    // The login code is consumed; deletion needs a fresh one.
    s.clock.advance(61);
    expect((await call(s, 'POST', '/api/user/delete', { token: t, body: { otp: '000000' } })).body.code).toBe('otp_invalid');
    await call(s, 'POST', '/api/auth/otp/request', { body: { phone: learner.phone } });
    const code = await lastCode(s, learner.phone);
    const deleted = await call(s, 'POST', '/api/user/delete', { token: t, body: { otp: code } });
    expect(deleted.status).toBe(204);

    // Every token of the account is dead; the refresh token too.
    expect((await call(s, 'GET', '/api/user/summary', { token: t })).status).toBe(401);
    expect((await call(s, 'POST', '/api/auth/refresh', { body: { refreshToken: learner.refreshToken } })).status).toBe(401);
    // Personal data is gone; the payment record stays.
    const rest = await queryAll(db, { partition: `USER#${learner.userId}` }, ItemKey);
    expect(rest.map((i) => i.sk)).toEqual(['ORDER#000001']);
    expect(await getItem(db, phoneKey(learner.phone), ItemKey)).toBeUndefined();

    // A new login with that phone is a new user with a new id, empty progress, and the board no longer has the old one.
    s.clock.advance(61);
    const again = await signIn(s, learner.phone);
    expect(again.isNewUser).toBe(true);
    expect(again.userId).not.toBe(learner.userId);
    const summary = await call(s, 'GET', '/api/user/summary', { token: again.accessToken });
    expect(summary.body.xp).toBe(0);
    s.clock.advance(61);
    const board = await call(s, 'GET', '/api/leaderboard?period=overall', { token: again.accessToken });
    expect(board.body.items).toEqual([]);
  });

  it('takes the learner off the boards by the XP they have at deletion, even when the request read less', async () => {
    const learner = await signIn(stack);
    const stale = (await getUser(stack.deps.db, learner.userId)) as User;
    // A completion lands after the deletion request loaded the user (XP 0 then).
    await playNode(stack, learner.accessToken, allNodes()[0]!);
    stack.clock.advance(61);
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: learner.phone } });
    await deleteAccount(stack.deps, stale, await lastCode(stack, learner.phone));
    const { db } = stack.deps;
    for (const board of [OVERALL_BOARD, weeklyBoard(stack.clock.now())]) {
      const buckets = await xpHistogram(db, board);
      expect(
        buckets.filter((b) => b.n !== 0),
        board,
      ).toEqual([]);
    }
  });

  it('refuses demo accounts, wrong codes and bad bodies, and deletes nothing', async () => {
    const s = stack;
    const login = await call(s, 'POST', '/api/auth/login', { body: { phone: demoPhone, otp: '1234' } });
    const demo = await call(s, 'POST', '/api/user/delete', { token: login.body.accessToken, body: { otp: '1234' } });
    expect(demo.status).toBe(403);
    expect(demo.body.code).toBe('permission_denied');
    expect((await call(s, 'GET', '/api/user/summary', { token: login.body.accessToken })).status).toBe(200);

    const learner = await signIn(s, newPhone());
    for (const body of [{}, { otp: 'abc' }, { otp: '123456', extra: true }]) {
      const res = await call(s, 'POST', '/api/user/delete', { token: learner.accessToken, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await call(s, 'POST', '/api/user/delete', { body: { otp: '123456' } })).status).toBe(401);
    expect((await call(s, 'GET', '/api/user/summary', { token: learner.accessToken })).status).toBe(200);
  });
});
