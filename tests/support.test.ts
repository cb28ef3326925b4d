/**
 * Support tickets (issue 3 §9): create, list, read, add messages; text at most 5000 characters; a learner
 * sees only their own tickets (404 otherwise). The two POSTs honour an optional `Idempotency-Key` (DESIGN §3
 * Idempotency): a retry replays, another request with the key is 409, a race with one key writes once, and the keys
 * go with the account.
 */
import { randomUUID } from 'node:crypto';
import { ItemKey, queryAll } from '@mathisland/core/db';
import { addMessage, openTicket } from '@mathisland/core/support';
import { describe, expect, it } from 'vitest';
import { commandOf, conflictingOnce, interleaved } from './support/interleave';
import { call, freshToken, lastCode, signIn, type TestStack, useStack } from './support/stack';

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

describe('support tickets with an Idempotency-Key', () => {
  const stack = useStack({ now: Date.UTC(2026, 10, 18, 8, 0) });
  const key = () => ({ 'idempotency-key': randomUUID() });
  const open = (s: TestStack, token: string, body: object, headers: Record<string, string> = {}) =>
    call(s, 'POST', '/api/tickets', { token, body, headers });
  const reply = (s: TestStack, token: string, id: number, text: string, headers: Record<string, string> = {}) =>
    call(s, 'POST', `/api/tickets/${id}/messages`, { token, body: { text }, headers });
  const ticketsOf = async (s: TestStack, token: string) => (await call(s, 'GET', '/api/tickets', { token })).body.items;
  const textsOf = async (s: TestStack, token: string, id: number) =>
    (await call(s, 'GET', `/api/tickets/${id}`, { token })).body.messages.map((m: { text: string }) => m.text);
  /** The key items of the learner's partition. */
  const keyItems = async (s: TestStack, userId: number) =>
    queryAll(s.deps.db, { partition: `USER#${userId}`, sortKey: { beginsWith: 'IDEMPOTENCY#' } }, ItemKey);

  it('opens one ticket for a request sent twice with one key; the retry answers it with Idempotent-Replayed', async () => {
    const s = stack;
    const t = (await signIn(s)).accessToken;
    const headers = key();
    const body = { subject: 'Lost my stars', text: 'Yesterday I had 12 stars.' };
    const first = await open(s, t, body, headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    s.clock.advance(5);
    const again = await open(s, t, body, headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await ticketsOf(s, t)).map((x: { id: number }) => x.id)).toEqual([first.body.id]);

    // A replay answers the ticket as it is now: with a later message, and still the first one once.
    s.clock.advance(5);
    await reply(s, t, first.body.id, 'Now I have 10.');
    const later = await open(s, t, body, headers);
    expect(later.headers.get('idempotent-replayed')).toBe('true');
    expect(later.body).toMatchObject({ id: first.body.id, messageCount: 2 });
    expect(later.body.messages.map((m: { text: string }) => m.text)).toEqual(['Yesterday I had 12 stars.', 'Now I have 10.']);

    // Without the header every request opens a ticket, as before.
    await open(s, t, body);
    await open(s, t, body);
    expect(await ticketsOf(s, t)).toHaveLength(3);
  });

  it('refuses the key with another body or on the other route with 409, and a malformed key with 400, writing nothing', async () => {
    const s = stack;
    const t = (await signIn(s)).accessToken;
    const headers = key();
    const first = await open(s, t, { subject: 'Help', text: 'one' }, headers);
    for (const body of [
      { subject: 'Help', text: 'two' },
      { subject: 'Help!', text: 'one' },
      { subject: 'Help', text: 'one ' },
    ]) {
      const other = await open(s, t, body, headers);
      expect(other.status, JSON.stringify(body)).toBe(409);
      expect(other.body).toEqual({ code: 'idempotency_conflict', detail: expect.any(String) });
    }
    // The ticket-opening key on a message (even one with the ticket's own text) is another request.
    const onMessage = await reply(s, t, first.body.id, 'one', headers);
    expect(onMessage.status).toBe(409);
    expect(onMessage.body.code).toBe('idempotency_conflict');

    for (const bad of ['short', 'x'.repeat(129), 'has space in it', 'key/with/slashes', '']) {
      const res = await open(s, t, { subject: 'Help', text: 'bad key' }, { 'idempotency-key': bad });
      expect(res.status, bad).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_error', fields: { 'Idempotency-Key': [expect.any(String)] } });
      const message = await reply(s, t, first.body.id, 'bad key', { 'idempotency-key': bad });
      expect(message.status, bad).toBe(400);
      expect(message.body.fields).toHaveProperty('Idempotency-Key');
    }
    expect(await ticketsOf(s, t)).toHaveLength(1);
    expect(await textsOf(s, t, first.body.id)).toEqual(['one']);
  });

  it('opens one ticket when requests race with one key', async () => {
    const s = stack;
    const session = await signIn(s);
    const headers = key();
    const body = { subject: 'Race', text: 'Sent three times at once' };
    const results = await Promise.all([0, 1, 2].map(() => open(s, session.accessToken, body, headers)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect(await ticketsOf(s, session.accessToken)).toHaveLength(1);

    // Certainly interleaved: the rival opens the ticket after this request found the key unused, so only the
    // key's condition in the transaction can stop a second ticket.
    const user = { id: session.userId };
    const k = randomUUID();
    const rival = () => openTicket(s.deps, user, { subject: 'Race 2', text: 'again' }, k);
    const deps = interleaved(s.deps, commandOf('GetCommand', `IDEMPOTENCY#ticket#${k}`), rival);
    const mine = await openTicket(deps, user, { subject: 'Race 2', text: 'again' }, k);
    expect(mine.replayed).toBe(true);
    const tickets = await ticketsOf(s, session.accessToken);
    expect(tickets.filter((x: { subject: string }) => x.subject === 'Race 2')).toEqual([expect.objectContaining({ id: mine.ticket.id })]);
    // The same interleaving with another body: the loser is a conflict, not a second ticket.
    const k2 = randomUUID();
    const other = interleaved(s.deps, commandOf('GetCommand', `IDEMPOTENCY#ticket#${k2}`), () =>
      openTicket(s.deps, user, { subject: 'Race 3', text: 'first' }, k2),
    );
    await expect(openTicket(other, user, { subject: 'Race 3', text: 'second' }, k2)).rejects.toMatchObject({
      code: 'idempotency_conflict',
    });
    expect(await ticketsOf(s, session.accessToken)).toHaveLength(3);
  });

  it('adds a message once for a request sent twice with one key; another body, ticket or route is 409', async () => {
    const s = stack;
    const t = (await signIn(s)).accessToken;
    const ticket = (await open(s, t, { subject: 'Messages', text: 'm1' })).body;
    const other = (await open(s, t, { subject: 'Other', text: 'o1' })).body;
    const headers = key();
    s.clock.advance(1);
    const first = await reply(s, t, ticket.id, 'm2', headers);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    s.clock.advance(1);
    const again = await reply(s, t, ticket.id, 'm2', headers);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(await textsOf(s, t, ticket.id)).toEqual(['m1', 'm2']);

    for (const [id, text] of [
      [ticket.id, 'm3'],
      [other.id, 'm2'],
    ] as const) {
      const res = await reply(s, t, id, text, headers);
      expect(res.status, `${id} ${text}`).toBe(409);
      expect(res.body.code).toBe('idempotency_conflict');
    }
    // The message's key used to open a ticket is another request too.
    expect((await open(s, t, { subject: 'm2', text: 'm2' }, headers)).status).toBe(409);
    expect(await textsOf(s, t, ticket.id)).toEqual(['m1', 'm2']);
    expect(await textsOf(s, t, other.id)).toEqual(['o1']);
    expect(await ticketsOf(s, t)).toHaveLength(2);
  });

  it('adds one message when requests race with one key, and retries a message whose transaction met another', async () => {
    const s = stack;
    const session = await signIn(s);
    const t = session.accessToken;
    const ticket = (await open(s, t, { subject: 'Race', text: 'm1' })).body;
    const headers = key();
    s.clock.advance(1); // messages within one millisecond have no defined order
    const results = await Promise.all([0, 1, 2].map(() => reply(s, t, ticket.id, 'm2', headers)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(results.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(2);
    expect(await textsOf(s, t, ticket.id)).toEqual(['m1', 'm2']);

    // Certainly interleaved: the rival writes the message after this request found the key unused.
    const user = { id: session.userId };
    const k = randomUUID();
    s.clock.advance(1);
    const deps = interleaved(s.deps, commandOf('GetCommand', `IDEMPOTENCY#ticket#${k}`), () =>
      addMessage(s.deps, user, ticket.id, 'm3', k),
    );
    const mine = await addMessage(deps, user, ticket.id, 'm3', k);
    expect(mine.replayed).toBe(true);
    expect(mine.ticket.messages.map((m) => m.text)).toEqual(['m1', 'm2', 'm3']);
    expect(await textsOf(s, t, ticket.id)).toEqual(['m1', 'm2', 'm3']);

    // A transaction cancelled by another one on the ticket (DynamoDB's TransactionConflict) wrote nothing: it is tried
    // again, with a key or without, and is neither lost nor taken for a full ticket.
    s.clock.advance(1);
    const busy = conflictingOnce(s.deps, commandOf('TransactWriteCommand', 'MSG#'));
    expect((await addMessage(busy, user, ticket.id, 'm4')).ticket.messageCount).toBe(4);
    s.clock.advance(1);
    const busyKeyed = conflictingOnce(s.deps, commandOf('TransactWriteCommand', 'MSG#'));
    expect(await addMessage(busyKeyed, user, ticket.id, 'm5', randomUUID())).toMatchObject({ replayed: false });
    expect(await textsOf(s, t, ticket.id)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('deletes the keys with the account', async () => {
    const s = stack;
    const learner = await signIn(s);
    const t = learner.accessToken;
    const ticket = await open(s, t, { subject: 'Mine', text: 'private' }, key());
    await reply(s, t, ticket.body.id, 'more', key());
    expect(await keyItems(s, learner.userId)).toHaveLength(2);
    s.clock.advance(61);
    await call(s, 'POST', '/api/auth/otp/request', { body: { phone: learner.phone } });
    const deleted = await call(s, 'POST', '/api/user/delete', { token: t, body: { otp: await lastCode(s, learner.phone) } });
    expect(deleted.status).toBe(204);
    expect(await keyItems(s, learner.userId)).toEqual([]);
  });
});
