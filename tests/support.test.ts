/**
 * Support tickets (issue 3 §9): create, list, read, add messages; text at most 5000 characters; a learner
 * sees only their own tickets (404 otherwise).
 */
import { describe, expect, it } from 'vitest';
import { call, freshToken, signIn, useStack } from './support/stack';

describe('support tickets', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });

  it('opens a ticket, lists it, reads it and adds messages in order', async () => {
    const s = stack;
    const learner = await signIn(s);
    const t = learner.accessToken;
    expect((await call(s, 'GET', '/api/tickets', { token: t })).body).toEqual({ items: [] });

    const created = await call(s, 'POST', '/api/tickets', {
      token: t,
      body: { subject: 'Lost my stars', text: 'Yesterday I had 12 stars.' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(Number),
      subject: 'Lost my stars',
      status: 'open',
      messageCount: 1,
      messages: [{ author: 'user', text: 'Yesterday I had 12 stars.', createdAt: expect.any(String) }],
    });
    const id = created.body.id;

    s.clock.advance(30);
    const second = await call(s, 'POST', '/api/tickets', { token: t, body: { subject: 'Second', text: 'Another question' } });
    s.clock.advance(30);
    const added = await call(s, 'POST', `/api/tickets/${id}/messages`, { token: t, body: { text: 'Now I have 10.' } });
    expect(added.status).toBe(201);
    expect(added.body.messages.map((m: { text: string }) => m.text)).toEqual(['Yesterday I had 12 stars.', 'Now I have 10.']);
    expect(added.body.messageCount).toBe(2);

    const listed = await call(s, 'GET', '/api/tickets', { token: t });
    // Most recently active first: the first ticket got the latest message.
    expect(listed.body.items.map((x: { id: number }) => x.id)).toEqual([id, second.body.id]);
    expect(listed.body.items[0]).not.toHaveProperty('messages');

    const read = await call(s, 'GET', `/api/tickets/${id}`, { token: t });
    expect(read.status).toBe(200);
    expect(read.body.messages).toHaveLength(2);
  });

  it('accepts 5000 characters of text and refuses 5001 with a validation error, losing nothing', async () => {
    const s = stack;
    const learner = await signIn(s);
    const t = learner.accessToken;
    const ok = await call(s, 'POST', '/api/tickets', { token: t, body: { subject: 'Long', text: 'ب'.repeat(5000) } });
    expect(ok.status).toBe(201);
    const tooLong = await call(s, 'POST', '/api/tickets', { token: t, body: { subject: 'Long', text: 'x'.repeat(5001) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe('validation_error');
    expect(tooLong.body.fields.text).toBeDefined();
    const longMessage = await call(s, 'POST', `/api/tickets/${ok.body.id}/messages`, { token: t, body: { text: 'x'.repeat(5001) } });
    expect(longMessage.status).toBe(400);
    expect((await call(s, 'GET', '/api/tickets', { token: t })).body.items).toHaveLength(1);
    expect((await call(s, 'GET', `/api/tickets/${ok.body.id}`, { token: t })).body.messages).toHaveLength(1);

    for (const body of [
      { subject: '', text: 'a' },
      { subject: 'a', text: '   ' },
      { subject: 'a' },
      { subject: 'a', text: 'b', extra: 1 },
      { subject: 1, text: 'b' },
    ]) {
      const res = await call(s, 'POST', '/api/tickets', { token: t, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('validation_error');
    }
  });

  it('refuses a message beyond 100 with a validation error naming the ticket, writing nothing', async () => {
    const s = stack;
    const session = await signIn(s);
    let t = session.accessToken;
    // The ticket_message scope allows 60 an hour; an access token lives an hour.
    const nextHour = async () => {
      s.clock.advance(3600);
      t = await freshToken(s, session);
    };
    const ticket = await call(s, 'POST', '/api/tickets', { token: t, body: { subject: 'Many', text: 'm1' } });
    const id = ticket.body.id;
    for (let n = 2; n <= 100; n++) {
      if (n % 50 === 0) await nextHour();
      s.clock.advance(1); // messages within one millisecond have no defined order
      const res = await call(s, 'POST', `/api/tickets/${id}/messages`, { token: t, body: { text: `m${n}` } });
      expect(res.status, `message ${n}`).toBe(201);
    }
    await nextHour();
    const full = await call(s, 'POST', `/api/tickets/${id}/messages`, { token: t, body: { text: 'm101' } });
    expect(full.status).toBe(400);
    expect(full.body).toMatchObject({ code: 'validation_error', fields: { text: [`ticket ${id} is full`] } });
    const read = await call(s, 'GET', `/api/tickets/${id}`, { token: t });
    expect(read.body.messageCount).toBe(100);
    expect(read.body.messages.map((m: { text: string }) => m.text)).toEqual(Array.from({ length: 100 }, (_, i) => `m${i + 1}`));
  });

  it('hides other learners’ tickets: 404 on read and on adding a message', async () => {
    const s = stack;
    const owner = await signIn(s);
    const other = await signIn(s);
    const ticket = await call(s, 'POST', '/api/tickets', { token: owner.accessToken, body: { subject: 'Mine', text: 'private' } });
    const read = await call(s, 'GET', `/api/tickets/${ticket.body.id}`, { token: other.accessToken });
    expect(read.status).toBe(404);
    expect(read.body).toEqual({ code: 'not_found', detail: expect.any(String) });
    const write = await call(s, 'POST', `/api/tickets/${ticket.body.id}/messages`, { token: other.accessToken, body: { text: 'hi' } });
    expect(write.status).toBe(404);
    expect((await call(s, 'GET', '/api/tickets', { token: other.accessToken })).body.items).toEqual([]);
    expect((await call(s, 'GET', `/api/tickets/${ticket.body.id}`, { token: owner.accessToken })).body.messages).toHaveLength(1);
    expect((await call(s, 'GET', '/api/tickets/abc', { token: owner.accessToken })).body.code).toBe('invalid_id');
    expect((await call(s, 'GET', '/api/tickets')).status).toBe(401);
  });
});
