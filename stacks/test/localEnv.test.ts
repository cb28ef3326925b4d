/**
 * A developer's local configuration is not a stage's (docs/deploy.md "First deploy"): SST loads `.env` and
 * `.env.local` for every stage, before `.env.<stage>` and `.env.<stage>.local`, each overriding what came before
 * (sst/project.js); the plain settings only those local files give are left out of every function's environment,
 * while those of the stage's files and of the deploying shell are deployed (stacks/service.ts).
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deployedSettings, envFiles, localEnvValues } from '../service';
import { projectPaths } from '../synth';
import { resourcesOf, synthVariant, type Templates } from './support';

const STAGE = 'qa';
const root = mkdtempSync(join(tmpdir(), 'mathisland-env-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const files: Record<string, string> = {
  '.env': [
    '# npm start',
    'HEARTS_ENFORCED=0',
    'FRONTEND_URL=http://localhost:5173/local-only',
    'AI_MODEL=local-model',
    'AI_DAILY_QUOTA_FREE=97',
    'SMS_TEMPLATE=from-env',
  ].join('\n'),
  '.env.local': 'SMS_TEMPLATE=from-env-local\nINVOICE_PREFIX=LOCAL',
  [`.env.${STAGE}`]: 'AI_MODEL=qa-model\nINVOICE_PREFIX=QA',
  [`.env.${STAGE}.local`]: 'AI_DAILY_QUOTA_FREE=97',
};
/** What the deploying shell sets before SST loads the files. */
const shell = { HEARTS_ENFORCED: '1', AI_EMBEDDING_MODEL: 'shell-embedding', SMS_TEMPLATE: 'shell-template' };

/** The environment SST makes of `shell` and the files for `stage`: each file in its order, with override. */
function sstLoaded(stage: string): NodeJS.ProcessEnv {
  const dotenv = createRequire(createRequire(import.meta.url).resolve('sst/package.json'))('dotenv') as typeof import('dotenv');
  const env: NodeJS.ProcessEnv = { ...shell };
  const { local, stage: staged } = envFiles(stage);
  for (const file of [...local, ...staged])
    dotenv.config({ path: join(root, file), override: true, processEnv: env as Record<string, string>, quiet: true });
  return env;
}

beforeAll(() => {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, name), `${text}\n`);
  // The rest of a project root, for what the stacks resolve from it (stacks/apiDocs.ts).
  for (const name of ['package.json', 'packages', 'node_modules']) symlinkSync(join(process.cwd(), name), join(root, name));
});

describe('settings from a developer’s local .env', () => {
  it('are left out; the stage’s files and the shell are deployed', () => {
    const env = sstLoaded(STAGE);
    // What SST's loading leaves in the deploying process: the local files won over the shell where both set a name.
    expect(env).toMatchObject({ HEARTS_ENFORCED: '0', SMS_TEMPLATE: 'from-env-local', AI_MODEL: 'qa-model' });
    expect(localEnvValues(root, STAGE)).toEqual({
      HEARTS_ENFORCED: '0',
      FRONTEND_URL: 'http://localhost:5173/local-only',
      SMS_TEMPLATE: 'from-env-local',
    });
    expect(deployedSettings(env, localEnvValues(root, STAGE))).toEqual({
      AI_MODEL: 'qa-model',
      AI_DAILY_QUOTA_FREE: '97',
      INVOICE_PREFIX: 'QA',
      AI_EMBEDDING_MODEL: 'shell-embedding',
    });
    // Another stage, with no files of its own: every local value is left out, the shell's stay.
    expect(deployedSettings(sstLoaded('other'), localEnvValues(root, 'other'))).toEqual({ AI_EMBEDDING_MODEL: 'shell-embedding' });
  });

  it('never reach a function of the synthesized stage', async () => {
    // The deploying process as SST leaves it.
    const synth = async (): Promise<Templates> => synthVariant(STAGE, sstLoaded(STAGE));
    // Read from the repository's root, where the test's files are not: everything set is deployed.
    const elsewhere = await synth();
    // SST's project root, where the files are read: the test's own.

    const paths = projectPaths();
    const repoRoot = paths.root;
    paths.root = root;
    let here: Templates;
    try {
      here = await synth();
    } finally {
      paths.root = repoRoot;
    }
    // Every service function (nothing is built: each has placeholder code, and its environment).
    const environments = (templates: Templates) =>
      [templates.Api, templates.Tutor, templates.Jobs]
        .flatMap((t) => Object.values(resourcesOf(t, 'AWS::Lambda::Function')))
        .map((fn) => fn.Properties.Environment?.Variables as Record<string, unknown> | undefined)
        .filter((vars) => vars?.STAGE === STAGE) as Array<Record<string, unknown>>;
    expect(environments(here).length).toBeGreaterThan(20);
    for (const vars of environments(here)) {
      expect(vars).toMatchObject({
        AI_MODEL: 'qa-model',
        AI_DAILY_QUOTA_FREE: '97',
        INVOICE_PREFIX: 'QA',
        AI_EMBEDDING_MODEL: 'shell-embedding',
      });
      for (const name of ['HEARTS_ENFORCED', 'FRONTEND_URL', 'SMS_TEMPLATE']) expect(vars).not.toHaveProperty(name);
    }
    for (const vars of environments(elsewhere)) expect(vars).toMatchObject({ HEARTS_ENFORCED: '0', SMS_TEMPLATE: 'from-env-local' });
  });
});
