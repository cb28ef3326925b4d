/**
 * Synthesis without AWS: the one path `npm run build` (scripts/build.ts) and the stack tests (stacks/test/) build the
 * app through, the way `sst deploy` builds it.
 *
 * `sst build` / `sst deploy` first ask STS who the caller is and, before writing the templates, look up the CDK
 * bootstrap stack (for SST's sourcemap uploader, which this app does not use: no function enables sourcemaps), so
 * both need credentials and a network. Here SST's own loader bundles `sst.config.ts`, its `stacks(app)` registers the
 * stacks with their default function props, and `app.finish()` builds every function with esbuild and the admin
 * site with Vite (in `deploy` mode) and applies the removal policy; the account is a placeholder
 * (`CDK_DEFAULT_ACCOUNT`, else `000000000000`). `NODE_ENV=test` is SST's switch that skips the bootstrap look-up.
 * The templates are those `sst deploy` would send, with the account id left as the `AWS::AccountId` pseudo
 * parameter wherever a stack does not name it.
 */
import { rmSync } from 'node:fs';
import type { Stack as CdkStack } from 'aws-cdk-lib';
import { App, type Stack } from 'sst/constructs';
import { initProject, useProject } from 'sst/project.js';
import { load } from 'sst/stacks/build.js';

/** The stacks of `sst.config.ts` this module names (the tests may find more: `Synthesized.ids`). */
export const stackIds = ['Storage', 'Secrets', 'Api', 'Tutor', 'Jobs', 'Web', 'Monitoring'] as const;
export type StackId = (typeof stackIds)[number];

export interface SynthOptions {
  stage: string;
  /**
   * `deploy` builds every function and the admin site (slow); `remove` skips the builds (same templates otherwise);
   * `dev` is what `sst dev` deploys: every function but those with `enableLiveDev: false` is SST's live-lambda bridge
   * (the handler runs on the developer's machine), and a site deploys only with `dev: { deploy: true }`.
   */
  mode: 'deploy' | 'remove' | 'dev';
  /** Where `app.synth()` writes the cloud assembly; without it nothing is written (the tests read the constructs). */
  outdir?: string;
  /**
   * Build only these stacks' functions and sites (SST's "active stacks"); the others get placeholder code and no
   * site distribution. Default: all.
   */
  activeStacks?: readonly StackId[];
  /** Registers these stacks instead of `sst.config.ts`'s (tests that add a stack of their own). */
  register?: (app: App) => void;
}

export interface Synthesized {
  app: App;
  /** The ids of every stack registered, in order (e.g. `Storage`, ..., `Monitoring`). */
  ids: string[];
  /** The stack `id` of `sst.config.ts` (e.g. `Api`), or of `register`. */
  stack(id: StackId | string): Stack;
  /** The stack as aws-cdk-lib's Stack type (sst may pin another copy of aws-cdk-lib; the runtime shape is the same). */
  cdkStack(id: StackId | string): CdkStack;
}

let project: Promise<{ stacks: (app: App) => Promise<void> | void }> | undefined;

/**
 * Initializes SST's project (once per process, with `projectStage` for SST's own state; each synthesis names its
 * own stage) and loads `sst.config.ts` through SST's loader.
 */
function loadProject(projectStage: string) {
  process.env.NODE_ENV = 'test';
  process.env.SST_TELEMETRY_DISABLED = '1';
  project ??= (async () => {
    await initProject({ stage: projectStage });
    const [, config] = await load(useProject().paths.config);
    return config as { stacks: (app: App) => Promise<void> | void };
  })();
  return project;
}

/** Synthesizes every stack of `sst.config.ts` for `stage`, offline. Throws what the stacks throw (the guards). */
export async function synthesize(options: SynthOptions): Promise<Synthesized> {
  const config = await loadProject(options.stage);
  const { config: projectConfig } = useProject();
  const app = new App(
    {
      mode: options.mode,
      stage: options.stage,
      name: projectConfig.name,
      region: projectConfig.region,
      account: process.env.CDK_DEFAULT_ACCOUNT ?? '000000000000',
      ...(options.activeStacks
        ? {
            isActiveStack: (stackName: string) =>
              options.activeStacks!.some((id) => stackName === `${options.stage}-${projectConfig.name}-${id}`),
          }
        : {}),
    },
    options.outdir ? { outdir: options.outdir } : {},
  );
  try {
    await (options.register ?? config.stacks)(app);
    await app.finish();
  } catch (error) {
    // A refused configuration (the guards): the CDK's temporary assembly folder, made by `new App`, is not needed.
    if (!options.outdir) rmSync(app.outdir, { recursive: true, force: true });
    throw error;
  }
  if (options.outdir) app.synth();
  const stack = (id: StackId | string): Stack => {
    const found = app.node.tryFindChild(app.logicalPrefixedName(id));
    if (!found) throw new Error(`sst.config.ts registers no stack ${id}`);
    return found as Stack;
  };
  const prefix = app.logicalPrefixedName('');
  const ids = app.node.children
    .filter((c) => 'templateFile' in c)
    .map((c) => (c as unknown as { stackName: string }).stackName.slice(prefix.length));
  return { app, ids, stack, cdkStack: (id) => stack(id) as unknown as CdkStack };
}

/** The project's paths (`.sst/`, artifacts) once {@link synthesize} ran. */
export const projectPaths = () => useProject().paths;
