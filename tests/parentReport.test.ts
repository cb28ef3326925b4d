/**
 * The parent's weekly SMS report (DESIGN §13) through the local stack and its fake sms provider: a number confirmed
 * with a code (sign-in's rules), nothing ever sent to an unconfirmed number, one report a week on Friday 18:00 Tehran
 * (`POST /_local/jobs/parent-reports`, the job the schedule runs) even when the job runs twice or the provider fails
 * and recovers, the SMS as the parent reads it (figures and the stop link), the stop link without sign-in, removal,
 * and the staff's masked view.
 */
import { weekKey } from '@mathisland/core/calendar';
import type { SeedNode } from '@mathisland/core/curriculum';
import { describe, expect, it } from 'vitest';
import { runParentReports } from '../packages/functions/src/jobs/parentReports';
import { allNodes, playNode, questionsOf, wrongAnswer } from './support/content';
import { admin, staffSession } from './support/payments';
import { runScriptOnStack } from './support/scripts';
import { call, freshToken, newPhone, type Session, signIn, type TestStack, useStack } from './support/stack';
import { asFunction } from './support/tableAccess';

/** `time` Tehran on `day`, epoch ms. */
const tehran = (day: string, time = '10:00:00') => Date.parse(`${day}T${time}+03:30`);
// The week of Saturday 2026-11-21 to Friday 2026-11-27; its report is due Friday 18:00.
const WEEK = '2026-11-21';
const FRIDAY_18 = tehran('2026-11-27', '18:00:00');

interface Sms {
  phone: string;
  template: string;
  text: string;
  token: string;
  tokens: Record<string, string>;
}
const outbox = async (stack: TestStack, phone: string): Promise<Sms[]> =>
  (await call(stack, 'GET', `/_local/sms/outbox?phone=${encodeURIComponent(phone)}`)).body.items;
const reports = async (stack: TestStack, phone: string) => (await outbox(stack, phone)).filter((m) => m.template === 'parent-report');
/** One run of the job as the deployed function runs it (its DynamoDB requests checked against its declaration). */
const runJob = (stack: TestStack, options: { thisWeek?: boolean } = {}) =>
  asFunction('parent-reports', () =>
    runParentReports(stack.deps, options.thisWeek ? { week: weekKey(stack.clock.now()) } : {}),
  ) as Promise<{ week: string | null; counts: Record<string, number>; off: boolean }>;
/** The same through the local stack's control route (`POST /_local/jobs/parent-reports`). */
const runJobRoute = async (stack: TestStack, body: unknown = {}) => {
  const res = await call(stack, 'POST', '/_local/jobs/parent-reports', { body });
  expect(res.status).toBe(200);
  return res.body as { week: string | null; counts: Record<string, number> };
};

/** A learner whose parent confirmed `parentPhone` (its code read from the fake provider's outbox). */
async function withParent(stack: TestStack, parentPhone = newPhone()): Promise<{ s: Session; parentPhone: string }> {
  const s = await signIn(stack);
  const asked = await call(stack, 'POST', '/api/user/parent', { token: s.accessToken, body: { phone: parentPhone } });
  expect(asked.status).toBe(200);
  const code = (await outbox(stack, parentPhone)).at(-1)?.token;
  const verified = await call(stack, 'POST', '/api/user/parent/verify', { token: s.accessToken, body: { code } });
  expect(verified.status).toBe(200);
  expect(verified.body.status).toBe('active');
  return { s, parentPhone };
}

describe('confirming a parent’s number', () => {
  const stack = useStack({ now: tehran('2026-11-23') });

  it('texts a code, nothing else, to a number until it is confirmed; a wrong code does not confirm it', async () => {
    stack.clock.set(tehran('2026-11-23'));
    const s = await signIn(stack);
    const parent = newPhone();
    const asked = await call(stack, 'POST', '/api/user/parent', { token: s.accessToken, body: { phone: parent } });
    expect(asked.status).toBe(200);
    expect(asked.body).toMatchObject({ status: 'none', phone: null, pendingPhone: parent, nextReportAt: null });
    const [codeSms] = await outbox(stack, parent);
    expect(codeSms).toMatchObject({ template: 'verify', text: expect.stringContaining(codeSms!.token) });
    expect(codeSms!.token).toMatch(/^[0-9]{6}$/);
    // The reports go out on Friday: this unconfirmed number gets none, now or then.
    stack.clock.set(FRIDAY_18);
    await runJob(stack);
    await runJob(stack, { thisWeek: true });
    expect(await outbox(stack, parent)).toHaveLength(1);
    const token = await freshToken(stack, s);
    const wrong = await call(stack, 'POST', '/api/user/parent/verify', {
      token,
      body: { code: codeSms!.token === '000000' ? '111111' : '000000' },
    });
    expect([wrong.status, wrong.body.code]).toEqual([401, 'otp_invalid']);
    // The code was sent on Monday: it died after 5 minutes.
    const late = await call(stack, 'POST', '/api/user/parent/verify', { token, body: { code: codeSms!.token } });
    expect([late.status, late.body.code]).toEqual([401, 'otp_invalid']);
    expect((await call(stack, 'GET', '/api/user/parent', { token })).body.status).toBe('none');
    expect(await outbox(stack, parent)).toHaveLength(1);
  });

  it('keeps sign-in’s code rules: one a minute, five wrong guesses kill it, it never signs anyone in', async () => {
    stack.clock.set(tehran('2026-11-24'));
    const s = await signIn(stack);
    const parent = newPhone();
    const t = s.accessToken;
    expect((await call(stack, 'POST', '/api/user/parent', { token: t, body: { phone: parent } })).status).toBe(200);
    const again = await call(stack, 'POST', '/api/user/parent', { token: t, body: { phone: parent } });
    expect([again.status, again.body.code]).toEqual([429, 'throttled']);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    const code = (await outbox(stack, parent)).at(-1)!.token;
    // The parent's code is no sign-in code for the parent's number.
    const login = await call(stack, 'POST', '/api/auth/login', { body: { phone: parent, otp: code } });
    expect([login.status, login.body.code]).toEqual([401, 'otp_invalid']);
    const wrongCode = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      expect((await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code: wrongCode } })).status).toBe(401);
    }
    const dead = await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code } });
    expect([dead.status, dead.body.code]).toEqual([401, 'otp_invalid']);
    expect(dead.body.detail).toContain('Too many wrong guesses');
    stack.clock.advance(61);
    await call(stack, 'POST', '/api/user/parent', { token: t, body: { phone: parent } });
    const fresh = (await outbox(stack, parent)).at(-1)!.token;
    const ok = await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code: fresh } });
    expect(ok.body).toMatchObject({ status: 'active', phone: parent, pendingPhone: null, nextReportAt: '2026-11-27T14:30:00.000Z' });
    const used = await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code: fresh } });
    expect([used.status, used.body.code]).toEqual([409, 'parent_not_pending']);
  });

  it('refuses bad input and callers who are not signed in', async () => {
    const s = await signIn(stack);
    const t = s.accessToken;
    for (const body of [{}, { phone: '۰۹۱۲۱۲۳۴۵۶۷' }, { phone: '0912' }, { phone: '09121234567', extra: 1 }, { phone: 9121234567 }]) {
      const res = await call(stack, 'POST', '/api/user/parent', { token: t, body });
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([400, 'validation_error']);
    }
    const badCode = await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code: 'abc' } });
    expect([badCode.status, badCode.body.code]).toEqual([400, 'validation_error']);
    const none = await call(stack, 'POST', '/api/user/parent/verify', { token: t, body: { code: '123456' } });
    expect([none.status, none.body.code]).toEqual([409, 'parent_not_pending']);
    for (const [method, path] of [
      ['GET', '/api/user/parent'],
      ['POST', '/api/user/parent'],
      ['POST', '/api/user/parent/verify'],
      ['DELETE', '/api/user/parent'],
    ] as const) {
      expect((await call(stack, method, path, { body: method === 'POST' ? { phone: '09121234567' } : undefined })).status).toBe(401);
    }
    const noToken = await call(stack, 'GET', '/api/parent/stop');
    expect([noToken.status, noToken.body.code]).toEqual([400, 'validation_error']);
    for (const token of ['abc', '1x0123456789abcdef0123', `12x${'f'.repeat(20)}`]) {
      const res = await call(stack, 'GET', `/api/parent/stop?token=${token}`);
      expect([res.status, res.body.code], token).toEqual([404, 'not_found']);
    }
  });
});

describe('the weekly report', () => {
  const stack = useStack({ now: tehran('2026-11-21') });
  const [node1, node2] = allNodes() as [SeedNode, SeedNode];

  it('texts each confirmed parent once on Friday 18:00 Tehran with the week’s figures and a stop link, however often the job runs', async () => {
    stack.clock.set(tehran('2026-11-22')); // Sunday
    const { s, parentPhone } = await withParent(stack);
    // Active on Sunday (one island) and Tuesday (another); XP from both.
    const first = await playNode(stack, s.accessToken, node1);
    stack.clock.set(tehran('2026-11-24'));
    const second = await playNode(stack, await freshToken(stack, s), node2);
    // Before the window: nothing.
    stack.clock.set(FRIDAY_18 - 1000);
    expect((await runJob(stack)).week).toBeNull();
    expect(await reports(stack, parentPhone)).toHaveLength(0);
    stack.clock.set(FRIDAY_18);
    const run = await runJobRoute(stack);
    expect(run).toMatchObject({ week: WEEK, off: false });
    expect(run.counts.sent).toBeGreaterThanOrEqual(1);
    const [sms] = await reports(stack, parentPhone);
    expect(sms!.tokens).toMatchObject({
      token: '2',
      token2: String(first.body.xp + second.body.xp),
      token3: '2',
      token10: '0', // Sunday and Tuesday: no streak left by Friday
      token20: expect.stringMatching(new RegExp(`^${s.userId}x[0-9a-f]{20}$`)),
    });
    for (const value of Object.values(sms!.tokens)) expect(value).not.toMatch(/[\s_]/);
    const stopUrl = `${stack.baseUrl}/api/parent/stop?token=${sms!.tokens.token20}`;
    expect(sms!.text).toContain('روزهای تمرین این هفته: 2 از ۷');
    expect(sms!.text).toContain(`امتیاز این هفته: ${first.body.xp + second.body.xp}`);
    expect(sms!.text).toContain('جزیره‌های تمام‌شده این هفته: 2');
    expect(sms!.text).toContain('رشتهٔ روزهای تمرین: 0 روز');
    expect(sms!.text).toContain(stopUrl);
    // Twice more in the window, and a forced run of the same week: still one.
    stack.clock.set(FRIDAY_18 + 15 * 60_000);
    await runJob(stack);
    await Promise.all([runJob(stack), runJob(stack), runJobRoute(stack, { thisWeek: true })]);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
    const view = (await call(stack, 'GET', '/api/user/parent', { token: await freshToken(stack, s) })).body;
    expect(view).toMatchObject({ status: 'active', lastReport: { week: WEEK, status: 'sent' }, nextReportAt: '2026-12-04T14:30:00.000Z' });
    // After the window (and on Saturday): nothing; the next Friday: the next week's report.
    stack.clock.set(FRIDAY_18 + 4 * 3_600_000);
    expect((await runJob(stack)).week).toBeNull();
    stack.clock.set(FRIDAY_18 + 7 * 86_400_000);
    expect((await runJob(stack)).week).toBe('2026-11-28');
    const both = await reports(stack, parentPhone);
    expect(both).toHaveLength(2);
    expect(both[1]!.tokens).toMatchObject({ token: '0', token2: '0', token3: '0' });
  });

  it('retries a report the provider refused at the next run, and sends it once when the provider recovers', async () => {
    stack.clock.set(tehran('2026-12-01'));
    const { parentPhone } = await withParent(stack);
    const friday = tehran('2026-12-04', '18:00:00');
    stack.clock.set(friday);
    // The provider is busy for every call of this run (other parents' too).
    await call(stack, 'POST', '/_local/sms/faults', { body: { status: 503, count: 1000, path: 'lookup' } });
    const down = await runJob(stack);
    expect(down.counts.failed).toBeGreaterThanOrEqual(1);
    expect(await reports(stack, parentPhone)).toHaveLength(0);
    await call(stack, 'DELETE', '/_local/sms/faults');
    stack.clock.set(friday + 15 * 60_000);
    const up = await runJob(stack);
    expect(up.counts.sent).toBeGreaterThanOrEqual(1);
    stack.clock.set(friday + 30 * 60_000);
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
  });

  it('does not text again a report the provider may have sent without a clear answer (a cut connection)', async () => {
    stack.clock.set(tehran('2026-12-08'));
    const { s, parentPhone } = await withParent(stack);
    const friday = tehran('2026-12-11', '18:00:00');
    stack.clock.set(friday);
    await call(stack, 'POST', '/_local/sms/faults', { body: { kind: 'reset', count: 1000, path: 'lookup' } });
    const cut = await runJob(stack);
    expect(cut.counts.uncertain).toBeGreaterThanOrEqual(1);
    await call(stack, 'DELETE', '/_local/sms/faults');
    stack.clock.set(friday + 15 * 60_000);
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(0);
    const view = (await call(stack, 'GET', '/api/user/parent', { token: await freshToken(stack, s) })).body;
    expect(view.lastReport).toMatchObject({ week: '2026-12-05', status: 'uncertain' });
  });

  it('stops with the link in the SMS, without signing in; again answers the same; the learner can remove the number', async () => {
    stack.clock.set(tehran('2026-12-14'));
    const a = await withParent(stack);
    const b = await withParent(stack);
    const friday = tehran('2026-12-18', '18:00:00');
    stack.clock.set(friday);
    await runJob(stack);
    const [sms] = await reports(stack, a.parentPhone);
    const stop = await call(stack, 'GET', `/api/parent/stop?token=${sms!.tokens.token20}`);
    expect(stop.status).toBe(200);
    expect(stop.body).toMatchObject({ stopped: true });
    expect(stop.headers.get('cache-control')).toBe('private, no-store');
    expect((await call(stack, 'GET', `/api/parent/stop?token=${sms!.tokens.token20}`)).body.stopped).toBe(true);
    // A token of another learner, or tampered with, stops nothing.
    const forged = `${b.s.userId}x${sms!.tokens.token20!.split('x')[1]}`;
    expect((await call(stack, 'GET', `/api/parent/stop?token=${forged}`)).status).toBe(404);
    expect((await call(stack, 'GET', '/api/user/parent', { token: await freshToken(stack, a.s) })).body).toMatchObject({
      status: 'stopped',
      nextReportAt: null,
    });
    expect((await call(stack, 'DELETE', '/api/user/parent', { token: await freshToken(stack, b.s) })).status).toBe(204);
    expect((await call(stack, 'DELETE', '/api/user/parent', { token: await freshToken(stack, b.s) })).status).toBe(204);
    stack.clock.set(friday + 7 * 86_400_000);
    await runJob(stack);
    expect(await reports(stack, a.parentPhone)).toHaveLength(1);
    expect(await reports(stack, b.parentPhone)).toHaveLength(1);
    // The stopped parent's link is void once the learner removes the number.
    await call(stack, 'DELETE', '/api/user/parent', { token: await freshToken(stack, a.s) });
    expect((await call(stack, 'GET', `/api/parent/stop?token=${sms!.tokens.token20}`)).status).toBe(404);
  });

  it('fails the run loudly when the provider refuses the template (an operator must act), and sends once it is fixed', async () => {
    stack.clock.set(tehran('2026-12-22'));
    const { parentPhone } = await withParent(stack);
    const friday = tehran('2026-12-25', '18:00:00');
    stack.clock.set(friday);
    await call(stack, 'POST', '/_local/sms/faults', { body: { code: 424, count: 1000, path: 'lookup' } });
    await expect(runJob(stack)).rejects.toThrow(/refused the parent report \(status 424\)/);
    await call(stack, 'DELETE', '/_local/sms/faults');
    expect(await reports(stack, parentPhone)).toHaveLength(0);
    stack.clock.set(friday + 15 * 60_000);
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
  });

  it('keeps texting the confirmed number while a new one waits for its code; an old number’s link stops nothing', async () => {
    stack.clock.set(tehran('2026-12-28'));
    const { s, parentPhone: first } = await withParent(stack);
    const second = newPhone();
    const token = await freshToken(stack, s);
    const asked = await call(stack, 'POST', '/api/user/parent', { token, body: { phone: second } });
    expect(asked.body).toMatchObject({ status: 'active', phone: first, pendingPhone: second });
    stack.clock.advance(60);
    await runJob(stack, { thisWeek: true }); // this week's report now (the week of Saturday 2026-12-26)
    const [toFirst] = await reports(stack, first);
    expect(toFirst).toBeDefined();
    expect(await reports(stack, second)).toHaveLength(0);
    const code = (await outbox(stack, second)).at(-1)!.token;
    const switched = await call(stack, 'POST', '/api/user/parent/verify', { token, body: { code } });
    expect(switched.body).toMatchObject({ status: 'active', phone: second, pendingPhone: null });
    const old = await call(stack, 'GET', `/api/parent/stop?token=${toFirst!.tokens.token20}`);
    expect([old.status, old.body.code]).toEqual([404, 'not_found']);
    expect((await call(stack, 'GET', '/api/user/parent', { token })).body.status).toBe('active');
  });

  it('sends one report a week to a number removed and confirmed again in the same week', async () => {
    stack.clock.set(tehran('2027-01-01', '18:00:00')); // a Friday
    const { s, parentPhone } = await withParent(stack);
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
    stack.clock.set(tehran('2027-01-01', '18:20:00'));
    const token = await freshToken(stack, s);
    await call(stack, 'DELETE', '/api/user/parent', { token });
    await call(stack, 'POST', '/api/user/parent', { token, body: { phone: parentPhone } });
    const code = (await outbox(stack, parentPhone)).at(-1)!.token;
    const again = await call(stack, 'POST', '/api/user/parent/verify', { token, body: { code } });
    expect(again.body).toMatchObject({ status: 'active', nextReportAt: '2027-01-08T14:30:00.000Z' });
    stack.clock.set(tehran('2027-01-01', '18:30:00'));
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
  });

  it('sends nothing for a deleted account', async () => {
    stack.clock.set(tehran('2027-01-12'));
    const { s, parentPhone } = await withParent(stack);
    await call(stack, 'POST', '/api/auth/otp/request', { body: { phone: s.phone } });
    const code = (await outbox(stack, s.phone)).at(-1)!.token;
    expect((await call(stack, 'POST', '/api/user/delete', { token: s.accessToken, body: { otp: code } })).status).toBe(204);
    stack.clock.set(tehran('2027-01-15', '18:00:00'));
    await runJob(stack);
    expect(await reports(stack, parentPhone)).toHaveLength(0);
  });
});

describe('the learner’s page for the staff', () => {
  const stack = useStack({ now: tehran('2026-11-27', '17:00:00') });

  it('shows the parent’s number masked, the report status, the freezes and the review, to view_user only', async () => {
    const { s, parentPhone } = await withParent(stack);
    const q = questionsOf(allNodes()[0]!)[0]!;
    await call(stack, 'POST', `/api/questions/${q.id}/answer`, { token: s.accessToken, body: { answer: wrongAnswer(q) } });
    stack.clock.set(FRIDAY_18);
    await runJob(stack);
    const viewer = await staffSession(stack, { permissions: ['view_user'] });
    const page = await admin(stack, viewer.cookie, 'GET', `/api/admin/users/${s.userId}`);
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      streak: { current: 0, freezes: 0, freezesMax: 2, freezesUsed: 0 },
      review: { inReview: 1, due: 0, mastered: 0 },
      parent: {
        status: 'active',
        phone: `${parentPhone.slice(0, 4)}****${parentPhone.slice(-3)}`,
        pendingPhone: null,
        reportsSent: 1,
        lastReport: { week: WEEK, status: 'sent', providerStatus: null },
        nextReportAt: '2026-12-04T14:30:00.000Z',
      },
    });
    expect(page.text).not.toContain(parentPhone);
    const other = await staffSession(stack, { permissions: ['view_order'] });
    const denied = await admin(stack, other.cookie, 'GET', `/api/admin/users/${s.userId}`);
    expect([denied.status, denied.body.code]).toEqual([403, 'permission_denied']);
  });
});

describe('parent reports switched off', () => {
  const stack = useStack({ env: { SMS_PARENT_REPORT_TEMPLATE: '' } });

  it('refuses to take a number (503 sms_unavailable) and texts nothing', async () => {
    const s = await signIn(stack);
    const parent = newPhone();
    const res = await call(stack, 'POST', '/api/user/parent', { token: s.accessToken, body: { phone: parent } });
    expect([res.status, res.body.code]).toEqual([503, 'sms_unavailable']);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(await outbox(stack, parent)).toHaveLength(0);
    expect((await runJob(stack, { thisWeek: true })).off).toBe(true);
  });
});

describe('npm run job:parent-reports', () => {
  const stack = useStack(); // the real time: the script runs on the machine's clock

  it('runs the job on the local table: with --this-week the week’s report, once however often it runs', async () => {
    const { parentPhone } = await withParent(stack);
    const settings = stack.deps.settings;
    const run = (...args: string[]) =>
      runScriptOnStack(stack, 'job-parent-reports.ts', args, { SMS_API_KEY: settings.sms.apiKey, SMS_BASE_URL: settings.sms.baseUrl });
    const forced = await run('--this-week');
    expect(forced.stdout).toMatch(/Parent reports on .*"sent":1/);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
    expect((await run('--this-week')).stdout).toMatch(/"sent":0/);
    expect(await reports(stack, parentPhone)).toHaveLength(1);
  });
});
