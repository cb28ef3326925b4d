/**
 * `npm run build [-- --stage <name>]`: synthesizes every stack of sst.config.ts offline, the way `sst deploy` would
 * (functions bundled with esbuild, the staff panel built with Vite), into `.sst/dist/` (CloudFormation templates
 * and assets). No AWS account, credentials or network: see stacks/synth.ts for what differs from `sst build`
 * (which asks STS for the account first). The stage defaults to `ci`; the deploy settings of that stage
 * (infra/deploy.ts, stacks/config.ts) are read from the environment and `.env.<stage>`, and their checks (the
 * production guards among them) apply: `npm run build -- --stage production` fails as `sst deploy` would.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { synthesize } from '../stacks/synth';

const args = process.argv.slice(2);
const stageFlag = args.indexOf('--stage');
const stage = stageFlag >= 0 ? args[stageFlag + 1] : 'ci';
if (!stage) {
  console.error('usage: npm run build [-- --stage <name>]');
  process.exit(2);
}

// SST's deploy-mode build runs `npm install` in each bundle directory (with nothing to install): keep it offline.
Object.assign(process.env, {
  npm_config_offline: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
});

const outdir = join('.sst', 'dist');
rmSync(outdir, { recursive: true, force: true });
try {
  const { app } = await synthesize({ stage, mode: 'deploy', outdir });
  const stacks = app.node.children.filter((c) => 'templateFile' in c).map((c) => (c as unknown as { stackName: string }).stackName);
  console.log(`Built ${stacks.length} stacks of stage ${stage} to ${outdir}: ${stacks.join(', ')}`);
} catch (error) {
  console.error(`\n${(error as Error).message}`);
  process.exit(1);
}
