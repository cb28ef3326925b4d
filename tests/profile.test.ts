/**
 * Profile (issue 3 §5; spec "User and profile"): display name policy, Jalali birth date with age 5-99 and a
 * derived birthYear, grade. Bad input changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Session, signIn, startTestStack, type TestStack } from './support/stack';

describe('profile', () => {
  let stack: TestStack;
  let s: Session;
  beforeAll(async () => {
    stack = await startTestStack({ now: Date.UTC(2026, 10, 20, 8, 0, 0) }); // 1405/08/29 in Tehran
    s = await signIn(stack);
  });
  afterAll(() => stack?.close());

  const patch = (body: unknown) => call(stack, 'PATCH', '/api/user/profile', { token: s.accessToken, body });
  const get = () => call(stack, 'GET', '/api/user/profile', { token: s.accessToken });

  it('starts with the phone as sent, grade 4 and nothing else', async () => {
    const res = await get();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      publicId: expect.stringMatching(/^User\d{6}$/),
      phone: s.phone,
      displayName: null,
      birthDate: null,
      birthYear: null,
      gradeId: 4,
    });
  });

  it('sets a display name, a Jalali birth date (birthYear derived) and a grade', async () => {
    const res = await patch({ displayName: '  سارا   کوچولو ', birthDate: '۱۳۹۲/۰۵/۱۷', gradeId: 5 });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ displayName: 'سارا کوچولو', birthDate: '1392/05/17', birthYear: 1392, gradeId: 5 });
    expect((await get()).body).toMatchObject({ displayName: 'سارا کوچولو', birthYear: 1392, gradeId: 5 });
    const home = await call(stack, 'GET', '/api/home', { token: s.accessToken });
    expect(home.body.gradeId).toBe(5);
    const summary = await call(stack, 'GET', '/api/user/summary', { token: s.accessToken });
    expect(summary.body.displayName).toBe('سارا کوچولو');
  });

  it.each([
    '09121234567',
    'Ali ۰۹۱۲۱۲۳۴۵۶۷',
    'علی 0912 123 4567',
    'سارا ۰۹۱۲-۱۲۳-۴۵۶۷',
    'www.example.com',
    'ali.ir',
    'https://t.me/ali',
    '@ali_kid',
    'insta: ali',
    'ali@example.com',
  ])('refuses the display name %s and keeps the old one', async (displayName) => {
    const before = (await get()).body.displayName;
    const res = await patch({ displayName });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(res.body.fields.displayName.length).toBeGreaterThan(0);
    expect((await get()).body.displayName).toBe(before);
  });

  it.each([
    ['1402/01/01', 'younger than 5'],
    ['1300/01/01', 'older than 99'],
    ['1394/12/30', 'no such day: 1394 is not a leap year'],
    ['1392/13/01', 'no month 13'],
    ['1410/01/01', 'in the future'],
    ['17/05/1392', 'wrong order'],
    ['2013-08-08', 'a Gregorian date'],
  ])('refuses the birth date %s (%s) and changes nothing', async (birthDate) => {
    const before = (await get()).body;
    const res = await patch({ birthDate });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_error');
    expect(Object.keys(res.body.fields)).toContain('birthDate');
    expect((await get()).body).toEqual(before);
  });

  it('accepts the age bounds 5 and 99 on the birthday', async () => {
    expect((await patch({ birthDate: '1400/08/29' })).body.birthYear).toBe(1400);
    expect((await patch({ birthDate: '1400/08/30' })).status).toBe(400);
    expect((await patch({ birthDate: '1306/08/30' })).body.birthYear).toBe(1306);
    expect((await patch({ birthDate: '1305/08/29' })).status).toBe(400);
  });

  it('refuses unknown grades, unknown fields and wrong types', async () => {
    for (const body of [{ gradeId: 9 }, { gradeId: '5' }, { nickname: 'x' }, { displayName: 5 }, { displayName: 'x'.repeat(31) }]) {
      const res = await patch(body);
      expect(res.status).toBe(400);
    }
  });

  it('clears fields with null', async () => {
    const res = await patch({ displayName: null, birthDate: null });
    expect(res.body).toMatchObject({ displayName: null, birthDate: null, birthYear: null });
  });

  it('needs a signed-in learner', async () => {
    expect((await call(stack, 'GET', '/api/user/profile')).status).toBe(401);
    expect((await call(stack, 'PATCH', '/api/user/profile', { body: { displayName: 'x' } })).status).toBe(401);
  });
});
