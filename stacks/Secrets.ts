/**
 * Secrets: one AWS Secrets Manager secret per stage, `mathisland/<stage>/app`, a JSON object keyed by the
 * names in `infra/secrets.ts` (DESIGN §1, §4). The functions receive its ARN as SECRETS_ID and read it
 * through Powertools Parameters.
 *
 * At creation SECRET_KEY is generated (64 letters and digits) and every other name is an empty string
 * (= off). Operators then fill in the provider keys:
 *
 *   aws secretsmanager get-secret-value --secret-id mathisland/<stage>/app --query SecretString --output text > s.json
 *   # edit s.json, keep SECRET_KEY
 *   aws secretsmanager put-secret-value --secret-id mathisland/<stage>/app --secret-string file://s.json
 *
 * CAUTION: CloudFormation regenerates the WHOLE value (a new SECRET_KEY, every other name back to "") whenever
 * the generation template changes, i.e. when a name is added to or removed from `infra/secrets.ts`
 * (aws/aws-cdk#19985). Save the value first and put it back (plus the new name) after that deploy.
 *
 * The origin secret, `mathisland/<stage>/origin` (DESIGN §12; infra/secrets.ts): `{ "current": <64 letters and
 * digits, generated>, "previous": "" }`. CloudFront sends `current` as the origin header `x-origin-verify`
 * (stacks/edge.ts); every endpoint group's function reads it (ORIGIN_SECRET_ID) and accepts `current` or
 * `previous`. Rotated by hand: docs/deploy.md "The edge".
 */
import { RemovalPolicy } from 'aws-cdk-lib';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { App, StackContext } from 'sst/constructs';
import { secretNames } from '../infra/secrets';

/** The secret's name for a stage. */
export const secretName = (stage: string): string => `mathisland/${stage}/app`;

/** The origin secret's name for a stage. */
export const originSecretName = (stage: string): string => `mathisland/${stage}/origin`;

/** The key CloudFormation generates; every other name starts empty. */
export const generatedSecretKey = 'SECRET_KEY';

/**
 * The app's removal policy (sst.config.ts), applied here explicitly: SST applies it with `instanceof CfnResource`
 * against its own copy of aws-cdk-lib, which misses constructs made with another copy.
 */
function removalPolicyOf(app: App): RemovalPolicy | undefined {
  switch (app.defaultRemovalPolicy) {
    case 'retain':
    case 'snapshot':
      return RemovalPolicy.RETAIN;
    case 'retain-on-update-or-delete':
      return RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;
    case 'destroy':
      return RemovalPolicy.DESTROY;
    default:
      return undefined;
  }
}

export function Secrets({ stack, app }: StackContext) {
  const template = Object.fromEntries(secretNames.filter((n) => n !== generatedSecretKey).map((n) => [n, '']));
  const secret = new Secret(stack, 'AppSecret', {
    secretName: secretName(stack.stage),
    description: `Secrets of mathisland (${stack.stage}): ${secretNames.join(', ')}`,
    generateSecretString: {
      secretStringTemplate: JSON.stringify(template),
      generateStringKey: generatedSecretKey,
      passwordLength: 64,
      excludePunctuation: true,
    },
  });
  const originSecret = new Secret(stack, 'OriginSecret', {
    secretName: originSecretName(stack.stage),
    description: `The origin header CloudFront adds to mathisland (${stack.stage}) requests: current (sent) and previous (still accepted)`,
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ previous: '' }),
      generateStringKey: 'current',
      passwordLength: 64,
      excludePunctuation: true,
    },
  });
  const removalPolicy = removalPolicyOf(app);
  if (removalPolicy) {
    secret.applyRemovalPolicy(removalPolicy);
    originSecret.applyRemovalPolicy(removalPolicy);
  }
  stack.addOutputs({ SecretName: secretName(stack.stage), OriginSecretName: originSecretName(stack.stage) });
  return { secret, originSecret };
}
