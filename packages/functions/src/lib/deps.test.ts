/**
 * The production wiring's secret refresh, against a fake Secrets Manager that speaks its wire protocol (JSON 1.1,
 * `X-Amz-Target: secretsmanager.GetSecretValue`, its error bodies), read through the real Powertools provider and
 * AWS SDK client the Lambdas use.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { productionDeps, SECRETS_MAX_AGE_SECONDS } from './deps';

const SECRET_ID = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:mathisland/test/app-AbCdEf';
const ORIGIN_ID = 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:mathisland/test/origin-GhIjKl';
const KEY_A = 'a'.repeat(64);
const KEY_B = 'b'.repeat(64);

/** A Secrets Manager stand-in: one secret, request log, and a switch to fail the way the service does. */
const fake = {
  value: {} as Record<string, string>,
  /** The origin secret (ORIGIN_ID). */
  origin: {} as Record<string, string>,
  failWith: undefined as undefined | { status: number; type: string; message: string },
  requests: [] as Array<{ target: string; secretId: string }>,
};
let server: Server;
let endpoint: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const target = String(req.headers['x-amz-target']);
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as { SecretId?: string };
      fake.requests.push({ target, secretId: body.SecretId ?? '' });
      const reply = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-requestid': `req-${fake.requests.length}` });
        res.end(JSON.stringify(payload));
      };
      if (target !== 'secretsmanager.GetSecretValue') return reply(400, { __type: 'UnknownOperationException' });
      if (fake.failWith) return reply(fake.failWith.status, { __type: fake.failWith.type, message: fake.failWith.message });
      const value = body.SecretId === SECRET_ID ? fake.value : body.SecretId === ORIGIN_ID ? fake.origin : undefined;
      if (!value) {
        return reply(400, { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." });
      }
      reply(200, {
        ARN: body.SecretId,
        Name: body.SecretId === SECRET_ID ? 'mathisland/test/app' : 'mathisland/test/origin',
        VersionId: `v${fake.requests.length}`,
        SecretString: JSON.stringify(value),
        VersionStages: ['AWSCURRENT'],
        CreatedDate: 1_700_000_000,
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

beforeEach(() => {
  fake.value = { SECRET_KEY: KEY_A, SMS_API_KEY: 'sms-1', INTERNAL_SERVICE_KEY: '' };
  fake.origin = { current: 'origin-one', previous: '' };
  fake.failWith = undefined;
  fake.requests = [];
});

/** A wiring as a Lambda has it, with a manual clock, reading the fake through a real Powertools provider. */
function wiring(env: NodeJS.ProcessEnv = {}) {
  const clock = { ms: 1_750_000_000_000 };
  const secrets = new SecretsProvider({
    clientConfig: { endpoint, region: 'eu-central-1', credentials: { accessKeyId: 'AKIDTEST', secretAccessKey: 'test' }, maxAttempts: 1 },
  });
  const getDeps = productionDeps(
    {},
    {
      env: { STAGE: 'test', TABLE_NAME: 'mathisland-test', SECRETS_ID: SECRET_ID, ...env },
      secrets,
      now: () => clock.ms,
    },
  );
  const advance = (seconds: number) => {
    clock.ms += seconds * 1000;
  };
  return { getDeps, advance };
}

describe('secrets from Secrets Manager, refreshed every SECRETS_MAX_AGE_SECONDS', () => {
  it('reads the secret once at cold start and builds the settings from it', async () => {
    const { getDeps } = wiring();
    const deps = await getDeps();
    expect(deps.settings.secretKey).toBe(KEY_A);
    expect(deps.settings.sms.apiKey).toBe('sms-1');
    expect(fake.requests).toEqual([{ target: 'secretsmanager.GetSecretValue', secretId: SECRET_ID }]);
  });

  it('serves from the cache within the interval: no request, the same dependencies', async () => {
    const { getDeps, advance } = wiring();
    const first = await getDeps();
    advance(SECRETS_MAX_AGE_SECONDS - 1);
    fake.value = { ...fake.value, SMS_API_KEY: 'sms-2' };
    expect(await getDeps()).toBe(first);
    expect(fake.requests).toHaveLength(1);
  });

  it('re-reads on the first request after the interval and keeps the dependencies when nothing changed', async () => {
    const { getDeps, advance } = wiring();
    const first = await getDeps();
    advance(SECRETS_MAX_AGE_SECONDS);
    expect(await getDeps()).toBe(first);
    expect(fake.requests).toHaveLength(2);
    advance(1);
    await getDeps();
    expect(fake.requests).toHaveLength(2);
  });

  it('rebuilds the settings and dependencies when a value changed, keeping the DynamoDB client', async () => {
    const { getDeps, advance } = wiring();
    const first = await getDeps();
    fake.value = { SECRET_KEY: KEY_B, SMS_API_KEY: 'sms-2', INTERNAL_SERVICE_KEY: 'internal-0123456789' };
    advance(SECRETS_MAX_AGE_SECONDS);
    const second = await getDeps();
    expect(second).not.toBe(first);
    expect(second.settings.secretKey).toBe(KEY_B);
    expect(second.settings.sms.apiKey).toBe('sms-2');
    expect(second.db).toBe(first.db);
    expect(await getDeps()).toBe(second);
  });

  it('shares one re-read between concurrent requests', async () => {
    const { getDeps, advance } = wiring();
    await getDeps();
    advance(SECRETS_MAX_AGE_SECONDS);
    const [a, b] = await Promise.all([getDeps(), getDeps()]);
    expect(a).toBe(b);
    expect(fake.requests).toHaveLength(2);
  });

  it('keeps the dependencies in use when a re-read fails, and tries again after another interval', async () => {
    const { getDeps, advance } = wiring();
    const first = await getDeps();
    fake.failWith = { status: 400, type: 'ThrottlingException', message: 'Rate exceeded' };
    advance(SECRETS_MAX_AGE_SECONDS);
    expect(await getDeps()).toBe(first);
    expect(fake.requests).toHaveLength(2);
    fake.failWith = undefined;
    fake.value = { ...fake.value, SMS_API_KEY: 'sms-3' };
    advance(1);
    expect(await getDeps()).toBe(first);
    advance(SECRETS_MAX_AGE_SECONDS);
    expect((await getDeps()).settings.sms.apiKey).toBe('sms-3');
  });

  it('keeps the dependencies in use when a changed value is refused by the settings', async () => {
    const { getDeps, advance } = wiring();
    const first = await getDeps();
    fake.value = { ...fake.value, SECRET_KEY: 'short' };
    advance(SECRETS_MAX_AGE_SECONDS);
    expect(await getDeps()).toBe(first);
  });

  it('fails a cold start whose secret cannot be read, and does not keep the failure', async () => {
    const { getDeps } = wiring({ SECRETS_ID: 'arn:aws:secretsmanager:eu-central-1:123456789012:secret:missing' });
    await expect(getDeps()).rejects.toThrow(/ResourceNotFoundException|can't find the specified secret/);
    await expect(getDeps()).rejects.toThrow();
    expect(fake.requests).toHaveLength(2);
  });

  it('takes secrets only from Secrets Manager: a secret name in the environment is ignored', async () => {
    const { getDeps } = wiring({ SMS_API_KEY: 'from-the-environment', SECRET_KEY: KEY_B });
    const deps = await getDeps();
    expect(deps.settings.sms.apiKey).toBe('sms-1');
    expect(deps.settings.secretKey).toBe(KEY_A);
  });

  it('without SECRETS_ID (not deployed) builds once from the environment and never reads a secret', async () => {
    const getDeps = productionDeps(
      {},
      { env: { STAGE: 'test', TABLE_NAME: 't', SECRET_KEY: KEY_A }, secrets: { get: () => Promise.reject(new Error('unused')) } },
    );
    const deps = await getDeps();
    expect(deps.settings.secretKey).toBe(KEY_A);
    expect(await getDeps()).toBe(deps);
  });

  it('reads the origin secret with the app secret: current and previous become the accepted origin header values', async () => {
    const { getDeps, advance } = wiring({ ORIGIN_SECRET_ID: ORIGIN_ID, ORIGIN_VERIFY_SECRET: 'from-the-environment' });
    const first = await getDeps();
    expect(first.settings.originVerify).toEqual(['origin-one']);
    expect(fake.requests.map((r) => r.secretId).sort()).toEqual([ORIGIN_ID, SECRET_ID].sort());
    // A rotation by hand: the new value is current, the old one previous; every worker takes both within the interval.
    fake.origin = { current: 'origin-two', previous: 'origin-one' };
    advance(SECRETS_MAX_AGE_SECONDS);
    const second = await getDeps();
    expect(second).not.toBe(first);
    expect(second.settings.originVerify).toEqual(['origin-two', 'origin-one']);
  });

  it('without ORIGIN_SECRET_ID ignores origin values in the environment (every request is then refused)', async () => {
    const { getDeps } = wiring({ ORIGIN_VERIFY_SECRET: 'from-the-environment' });
    expect((await getDeps()).settings.originVerify).toEqual([]);
  });

  it('is the interval the README and docs/deploy.md state', () => {
    const minutes = `${SECRETS_MAX_AGE_SECONDS / 60} minutes`;
    for (const file of ['../../../../README.md', '../../../../docs/deploy.md']) {
      const text = readFileSync(new URL(file, import.meta.url), 'utf8').replace(/\s+/g, ' ');
      expect(text, file).toContain(`re-read at most every ${minutes}`);
    }
  });
});
