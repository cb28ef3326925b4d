/**
 * Stack test support. The stage `test` is synthesized once per run, as `sst deploy` would build it (every function
 * bundled, the staff panel built), by the project's global setup (globalSetup.ts) into a cloud assembly; each test
 * file reads its templates from there ({@link baseStage}). A file that needs another configuration (production,
 * a custom domain, an alarm topic) synthesizes that variant itself ({@link synthVariant}), building only the stacks
 * it looks at.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { inject } from 'vitest';
import { deploySettingDecls, forbiddenInProduction } from '../../infra/deploy';
import { type FunctionName, functionAccess, readsOriginSecret, tracingActions } from '../../infra/permissions';
import { pathsOf } from '../../packages/functions/src/openapi/document';
import { type StackId, type SynthOptions, stackIds, synthesize } from '../synth';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The cloud assembly of the stage `test` (globalSetup.ts). */
    stacksOutdir: string;
  }
}

export type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };
export type Resources = Record<string, Resource>;
/** Templates by stack id: those of `stackIds`, and any other stack sst.config.ts registers. */
export type Templates = Record<StackId, Template> & Record<string, Template>;

/** The stage the global setup synthesizes and the environment it synthesizes it with. */
export const BASE_STAGE = 'test';
export const baseEnv: Record<string, string | undefined> = {
  // A plain setting set in the deploying shell is passed through; an unset one is left out.
  AI_MODEL: 'deploy-time-model',
  OPENAI_BASE_URL: undefined,
  // Secrets in the shell must never reach the function environment.
  SECRET_KEY: 'must-not-be-deployed',
  OPENAI_API_KEY: 'must-not-be-deployed',
  GATEWAY_MERCHANT_ID: 'must-not-be-deployed',
  ORIGIN_VERIFY_SECRET: 'must-not-be-deployed',
  ORIGIN_VERIFY_PREVIOUS: 'must-not-be-deployed',
  // SST's deploy-mode build runs `npm install` in each bundle directory (with nothing to install): keep it offline.
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
  SST_BUILD_CONCURRENCY: '4',
};

/** Every deploy-time name a variant sets or must find unset (a developer's `.env` must not leak into a test). */
const deployNames = [...Object.keys(deploySettingDecls), ...forbiddenInProduction, 'PUBLIC_BASE_URL'];

/** Sets `values` (undefined = unset) and every other deploy-time name unset; returns the restore function. */
export function setEnv(values: Record<string, string | undefined>): () => void {
  const names = new Set([...deployNames, ...Object.keys(values)]);
  const saved = new Map([...names].map((name) => [name, process.env[name]]));
  for (const name of names) {
    const value = values[name];
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  return () => {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
}

/** The templates of the stage `test` written by the global setup. */
export function baseStage(): { templates: Templates; outdir: string } {
  const outdir = inject('stacksOutdir');
  const prefix = `${BASE_STAGE}-mathisland-`;
  const files = readdirSync(outdir).filter((f) => f.startsWith(prefix) && f.endsWith('.template.json'));
  const templates = Object.fromEntries(
    files.map((f) => [
      f.slice(prefix.length, -'.template.json'.length),
      Template.fromJSON(JSON.parse(readFileSync(join(outdir, f), 'utf8'))),
    ]),
  ) as Templates;
  for (const id of stackIds) if (!templates[id]) throw new Error(`the global setup wrote no template for ${id}`);
  return { templates, outdir };
}

/**
 * Synthesizes `stage` with the deploy-time settings `env` (every other deploy-time name unset), building only
 * `active` (default: none; functions then get placeholder code and the staff site no distribution), as `sst deploy`
 * builds it or, with `mode` `dev`, as `sst dev` does.
 */
export async function synthVariant(
  stage: string,
  env: Record<string, string | undefined>,
  active: readonly StackId[] = [],
  register?: SynthOptions['register'],
  mode: 'deploy' | 'dev' = 'deploy',
): Promise<Templates> {
  const restore = setEnv({ ...baseEnv, ...env });
  try {
    const synthesized = await synthesize({ stage, mode, activeStacks: active, register });
    try {
      return Object.fromEntries(synthesized.ids.map((id) => [id, Template.fromStack(synthesized.cdkStack(id))])) as Templates;
    } finally {
      // The templates are read: the CDK's temporary assembly (tens of MB with its asset copies) is not needed again.
      rmSync(synthesized.app.outdir, { recursive: true, force: true });
    }
  } finally {
    restore();
  }
}

/** Synthesizes `stage` with `env` and returns what it threw (undefined when it did not). */
export async function synthError(stage: string, env: Record<string, string | undefined>): Promise<Error | undefined> {
  try {
    await synthVariant(stage, env);
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

export const resourcesOf = (t: Template, type: string): Resources => t.findResources(type) as Resources;

/**
 * The outputs `sst deploy` and `sst dev` print, by name, with their values: every stack's outputs but SST's metadata
 * and the cross-stack exports (SST's own filter, sst/stacks/monitor.js `filterOutputs`).
 */
export const printedOutputs = (templates: Record<string, Template>): Record<string, unknown> =>
  Object.fromEntries(
    Object.values(templates).flatMap((t) =>
      Object.entries(t.findOutputs('*'))
        .filter(([key]) => !key.startsWith('Export') && key !== 'SSTMetadata')
        .map(([key, output]) => [key, output.Value]),
    ),
  );

/** The Lambda functions built from this repo's handlers (not SST's or CDK's own custom-resource handlers). */
export const appLambdas = (t: Template): Resources =>
  Object.fromEntries(
    Object.entries(resourcesOf(t, 'AWS::Lambda::Function')).filter(([, r]) =>
      String(r.Properties.Handler).startsWith('packages/functions/'),
    ),
  );

/** The endpoint group of a function built from `packages/functions/src/groups/<group>.handler`. */
export const groupOf = (fn: Resource): string | undefined =>
  /^packages\/functions\/src\/groups\/([a-z-]+)\.handler$/.exec(String(fn.Properties.Handler))?.[1];

/** The IAM policy statements attached to the role of function `fn`. */
export function statementsOf(t: Template, fn: Resource): Array<{ Action: string | string[]; Resource: unknown; Effect: string }> {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return Object.values(resourcesOf(t, 'AWS::IAM::Policy'))
    .filter((p) => p.Properties.Roles.some((r: { Ref: string }) => r.Ref === roleId))
    .flatMap((p) => p.Properties.PolicyDocument.Statement);
}

/** The managed policies of function `fn`'s role. */
export function managedPoliciesOf(t: Template, fn: Resource): unknown[] {
  const roleId = fn.Properties.Role['Fn::GetAtt'][0];
  return resourcesOf(t, 'AWS::IAM::Role')[roleId]?.Properties.ManagedPolicyArns ?? [];
}

/** The route keys an OpenAPI 3.x document describes: `METHOD path` for each operation of `paths`. */
export const openApiRouteKeys = (document: { paths?: object }): string[] =>
  pathsOf(document).map(({ method, path }) => `${method} ${path}`);

/** The declared function a Lambda is: its endpoint group, or its job (`jobs/paymentRecheck` → `payment-recheck`). */
export function functionNameOf(fn: Resource): string {
  const handler = String(fn.Properties.Handler);
  const group = /^packages\/functions\/src\/groups\/([a-z]+)\.handler$/.exec(handler)?.[1];
  if (group) return group;
  const job = /^packages\/functions\/src\/jobs\/([A-Za-z]+)\.handler$/.exec(handler)?.[1];
  if (job) return job.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return handler;
}

/** What a policy resource is: `table`, `index/<name>`, `secret`, `origin secret`, or its JSON (anything else, `*` included). */
export function resourceKind(resource: unknown): string {
  const json = JSON.stringify(resource);
  const isTable = (r: unknown): boolean => {
    const s = JSON.stringify(r);
    return (
      /^\{"Fn::ImportValue":"[^"]*-Storage:ExportsOutputFnGetAttDataTable\w*Arn\w*"\}$/.test(s) ||
      /^\{"Fn::GetAtt":\["DataTable\w*","Arn"\]\}$/.test(s)
    );
  };
  if (isTable(resource)) return 'table';
  const join = (resource as { 'Fn::Join'?: [string, unknown[]] })?.['Fn::Join'];
  if (join && join[0] === '' && join[1].length === 2 && isTable(join[1][0]) && typeof join[1][1] === 'string') {
    const index = /^\/index\/([A-Za-z0-9_.-]+)$/.exec(join[1][1])?.[1];
    if (index) return `index/${index}`;
  }
  if (/^\{"Fn::ImportValue":"[^"]*-Secrets:ExportsOutputRefAppSecret\w*"\}$/.test(json)) return 'secret';
  if (/^\{"Fn::ImportValue":"[^"]*-Secrets:ExportsOutputRefOriginSecret\w*"\}$/.test(json)) return 'origin secret';
  return json;
}

/** The X-Ray pairs every function has (infra/permissions.ts tracingActions: the one `*`). */
export const tracingGrants = (): string[] => tracingActions.map((action) => `${action} on "*"`);

/** The (action on resource) pairs a declaration allows, with the tracing exception every function has. */
export function declaredGrants(name: FunctionName): string[] {
  const access = functionAccess[name];
  return [
    ...tracingGrants(),
    ...access.table.map((a) => `dynamodb:${a} on table`),
    ...access.indexes.map((i) => `dynamodb:Query on index/${i}`),
    ...(access.secret ? ['secretsmanager:GetSecretValue on secret'] : []),
    ...(readsOriginSecret(name) ? ['secretsmanager:GetSecretValue on origin secret'] : []),
  ].sort();
}

/** The (action on resource) pairs `statements` allow; a Deny or a condition is listed as is (and so fails). */
export function grantedPairs(
  statements: Array<{ Action: string | string[]; Resource: unknown; Effect: string; Condition?: unknown }>,
): string[] {
  const pairs: string[] = [];
  for (const st of statements) {
    const actions = ([] as string[]).concat(st.Action);
    const resources = ([] as unknown[]).concat(st.Resource);
    for (const action of actions) {
      for (const resource of resources) {
        pairs.push(
          `${st.Effect === 'Allow' ? '' : `${st.Effect} `}${action} on ${resourceKind(resource)}${st.Condition ? ' (conditional)' : ''}`,
        );
      }
    }
  }
  return [...new Set(pairs)].sort();
}
