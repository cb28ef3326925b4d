/**
 * The bench's bare baselines (scripts/lib/bench/bare.ts): a bare server does the same DynamoDB work as the call it
 * replays and answers the same body; the token variant checks the token as the service does (a forged one fails the
 * replay); a replay DynamoDB refuses, or one nobody expected, is reported, never measured as if it were the same work.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { assertReplayed, BareReplayRefused, startBareServers } from '../scripts/lib/bench/bare';
import { send } from '../scripts/lib/bench/client';
import { instrument } from '../scripts/lib/bench/measure';
import { allNodes, questionsOf, wrongAnswer } from './support/content';
import { signIn, useStack } from './support/stack';

describe('bare baselines', () => {
  const stack = useStack();

  it('replays home’s own DynamoDB requests and answers its body, with and without the token’s check', async () => {
    const session = await signIn(stack);
    const measure = instrument(stack.deps.db);
    const headers = { authorization: `Bearer ${session.accessToken}` };
    const home = await measure(() => send('GET', `${stack.baseUrl}/api/home`, { headers }));
    expect(home.result.status).toBe(200);
    expect(home.side.requests).toBe(2);
    const bare = await startBareServers(stack.deps.db, stack.deps);
    try {
      for (const variant of ['requests', 'token'] as const) {
        bare.expect({ commands: home.commands, status: 200, body: JSON.stringify(home.result.json) });
        const replay = await measure(() => send('GET', `${bare.url(variant)}/api/home`, { headers }));
        expect(replay.result.status).toBe(200);
        expect(replay.result.json).toEqual(home.result.json);
        expect(replay.side.requests).toBe(2);
        // The same commands with the same inputs, not objects the replay could have changed.
        expect(replay.commands.map((c) => [c.constructor.name, c.input])).toEqual(home.commands.map((c) => [c.constructor.name, c.input]));
        expect(replay.commands[0]).not.toBe(home.commands[0]);
      }
    } finally {
      await bare.close();
    }
  });

  it('replays a right answer’s transaction, and a wrong answer’s is refused by the hearts it spent', async () => {
    const session = await signIn(stack);
    const measure = instrument(stack.deps.db);
    const headers = { authorization: `Bearer ${session.accessToken}` };
    const [right, wrong] = questionsOf(allNodes()[0]!);
    const bare = await startBareServers(stack.deps.db, stack.deps);
    try {
      for (const [question, answer, replayed] of [
        [right, right?.answer, true],
        [wrong, wrong && wrongAnswer(wrong), false],
      ] as const) {
        const path = `/api/questions/${question?.id}/answer`;
        const call = await measure(() => send('POST', `${stack.baseUrl}${path}`, { headers, body: { answer } }));
        expect(call.result.status).toBe(200);
        bare.expect({ commands: call.commands, status: 200, body: JSON.stringify(call.result.json) });
        const replay = await measure(() => send('POST', `${bare.url('token')}${path}`, { headers, body: { answer } }));
        expect(assertReplayed('POST /api/questions/{id}/answer', 'token', replay.result.status, replay.result.json)).toBe(replayed);
        expect(replay.side.requests).toBe(2);
      }
    } finally {
      await bare.close();
    }
  });

  it('fails the token variant’s replay on a forged token, and the bench stops on it', async () => {
    const session = await signIn(stack);
    const bare = await startBareServers(stack.deps.db, stack.deps);
    try {
      bare.expect({ commands: [], status: 200, body: '{}' });
      const [head, payload] = session.accessToken.split('.');
      const forged = await send('GET', `${bare.url('token')}/api/home`, { headers: { authorization: `Bearer ${head}.${payload}.AAAA` } });
      expect(forged.status).toBe(599);
      expect(() => assertReplayed('GET /api/home', 'token', forged.status, forged.json)).toThrow(BareReplayRefused);
      // The same request without the check is answered: the refusal was the token's.
      bare.expect({ commands: [], status: 200, body: '{}' });
      const plain = await send('GET', `${bare.url('requests')}/api/home`);
      expect(plain.status).toBe(200);
      expect(() => assertReplayed('GET /api/home', 'requests', plain.status, plain.json)).not.toThrow();
    } finally {
      await bare.close();
    }
  });

  it('reports a replay DynamoDB refuses and a request nobody expected', async () => {
    const bare = await startBareServers(stack.deps.db, stack.deps);
    try {
      const refused = new UpdateCommand({
        TableName: stack.deps.db.tableName,
        Key: { pk: 'USER#0', sk: 'PROFILE' },
        UpdateExpression: 'SET #n = :n',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#n': 'name' },
        ExpressionAttributeValues: { ':n': 'x' },
      });
      bare.expect({ commands: [refused as never], status: 200, body: '{}' });
      const res = await send('GET', `${bare.url('requests')}/api/home`);
      expect(res.status).toBe(599);
      expect(JSON.stringify(res.json)).toContain('ConditionalCheckFailed');
      // Left out (and counted) on answer, whose wrong answers' replays are refused by the hearts; home stops the bench.
      expect(assertReplayed('POST /api/questions/{id}/answer', 'requests', res.status, res.json)).toBe(false);
      expect(() => assertReplayed('GET /api/home', 'requests', res.status, res.json)).toThrow(BareReplayRefused);
      const unexpected = await send('GET', `${bare.url('requests')}/api/home`);
      expect(unexpected.status).toBe(599);
      // A failure that is no condition's stops the bench even on answer.
      expect(() => assertReplayed('POST /api/questions/{id}/answer', 'requests', unexpected.status, unexpected.json)).toThrow(
        /nobody expected/,
      );
    } finally {
      await bare.close();
    }
  });
});
