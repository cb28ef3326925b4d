/**
 * The deploy-time configuration of a stage, read from the deploying environment (the shell, or `.env.<stage>`
 * which SST loads) when the stacks are synthesized, and checked: a bad value stops `sst deploy` (and
 * `npm run build`) before anything reaches AWS, with a message naming the setting.
 *
 * - Production guards: the stage `production` refuses DEBUG, DEBUG_MASTER_OTP and FIXED_OTP_LOGINS
 *   (infra/deploy.ts `forbiddenInProduction`); the service refuses them again at start-up if they come from the
 *   stage secret.
 * - The public origin (DESIGN §1, §11): with DOMAIN_NAME it is `https://<DOMAIN_NAME>`, known at synthesis, so the
 *   functions receive it as PUBLIC_BASE_URL with no reference to the distribution (which points at them: such a
 *   reference would be a CloudFormation cycle). Without a domain, PUBLIC_BASE_URL may be given (the CloudFront
 *   address the first deploy printed); the Web stack checks it against its distribution during the deploy.
 * - Alarms go to ALARM_TOPIC_ARN, or to a topic the Monitoring stack creates (with ALARM_EMAIL subscribed).
 */
import { type DeploySettingName, deploySettingDecls, forbiddenInProduction } from '../infra/deploy';

/** The stage whose resources outlive `sst remove` and whose guards are strict (sst.config.ts). */
export const PRODUCTION_STAGE = 'production';

export class DeployConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeployConfigError';
  }
}

export interface DeployConfig {
  stage: string;
  production: boolean;
  /** The stage's custom domain, when set. */
  domain?:
    | { name: string; certificateArn: string; hostedZone?: undefined }
    | { name: string; hostedZone: string; certificateArn?: undefined };
  /** The one public origin (`https://host`, no trailing slash), when known at synthesis. */
  publicBaseUrl?: string;
  /** Where {@link publicBaseUrl} comes from: the custom domain, the PUBLIC_BASE_URL setting, or nowhere yet. */
  publicBaseUrlSource: 'domain' | 'setting' | 'none';
  alarms: { topicArn?: string; email?: string };
  apiThrottle: { rate: number; burst: number };
  /** Deploy the staff panel's existing build instead of building it (ADMIN_PREBUILT=1). */
  adminPrebuilt: boolean;
  /** The version of the origin secret CloudFront sends (ORIGIN_SECRET_VERSION); unset: its current one. */
  originSecretVersion?: string;
}

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:([a-z0-9-]+):\d{12}:certificate\/[A-Za-z0-9-]+$/;
const TOPIC_ARN = /^arn:aws[a-z-]*:sns:[a-z0-9-]+:\d{12}:[A-Za-z0-9_-]{1,256}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A setting as given: undefined when unset or blank. */
const settingOf = (env: NodeJS.ProcessEnv, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value ? value : undefined;
};

const isOn = (value: string | undefined): boolean => value !== undefined && !['0', 'false', 'no', 'off'].includes(value.toLowerCase());

/** Throws when the production stage is deployed with a debug or demo setting in its environment. */
export function assertProductionGuards(stage: string, env: NodeJS.ProcessEnv = process.env): void {
  if (stage !== PRODUCTION_STAGE) return;
  const set = forbiddenInProduction.filter((name) => (name === 'DEBUG' ? isOn(settingOf(env, name)) : settingOf(env, name) !== undefined));
  if (set.length) {
    throw new DeployConfigError(
      `Refusing to deploy the ${PRODUCTION_STAGE} stage: ${set.join(', ')} ${set.length > 1 ? 'are' : 'is'} set in the deploying ` +
        `environment (the shell, .env or .env.${PRODUCTION_STAGE}). Debug mode, its master code and fixed demo logins must never ` +
        `reach production: unset ${set.length > 1 ? 'them' : 'it'} and deploy again.`,
    );
  }
}

function intSetting(env: NodeJS.ProcessEnv, name: DeploySettingName & ('API_THROTTLE_RATE' | 'API_THROTTLE_BURST')): number {
  const raw = settingOf(env, name) ?? deploySettingDecls[name].default;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < 1) throw new DeployConfigError(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

/** The origin of a URL given as PUBLIC_BASE_URL: `https://host[:port]`, nothing after it. */
function originOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new DeployConfigError(`PUBLIC_BASE_URL must be a URL such as https://d1234abcd.cloudfront.net (got "${raw}")`);
  }
  if (url.protocol !== 'https:' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash || url.username) {
    throw new DeployConfigError(
      `PUBLIC_BASE_URL must be an https origin with no path, e.g. https://d1234abcd.cloudfront.net (got "${raw}"): the service is the whole origin`,
    );
  }
  return url.origin;
}

function domainOf(env: NodeJS.ProcessEnv): DeployConfig['domain'] {
  const name = settingOf(env, 'DOMAIN_NAME')?.toLowerCase();
  const certificateArn = settingOf(env, 'DOMAIN_CERTIFICATE_ARN');
  const hostedZone = settingOf(env, 'DOMAIN_HOSTED_ZONE')?.toLowerCase().replace(/\.$/, '');
  if (!name) {
    if (certificateArn || hostedZone) throw new DeployConfigError('DOMAIN_CERTIFICATE_ARN and DOMAIN_HOSTED_ZONE need DOMAIN_NAME');
    return undefined;
  }
  if (!HOSTNAME.test(name)) throw new DeployConfigError(`DOMAIN_NAME must be a host name such as app.example.com (got "${name}")`);
  if (certificateArn && hostedZone) {
    throw new DeployConfigError('Set DOMAIN_CERTIFICATE_ARN (DNS managed elsewhere) or DOMAIN_HOSTED_ZONE (Route 53), not both');
  }
  if (certificateArn) {
    const region = CERTIFICATE_ARN.exec(certificateArn)?.[1];
    if (!region) throw new DeployConfigError(`DOMAIN_CERTIFICATE_ARN is not an ACM certificate ARN (got "${certificateArn}")`);
    if (region !== 'us-east-1') {
      throw new DeployConfigError(
        `DOMAIN_CERTIFICATE_ARN must be a certificate in us-east-1 (CloudFront reads certificates only there); this one is in ${region}`,
      );
    }
    return { name, certificateArn };
  }
  if (hostedZone) {
    if (name !== hostedZone && !name.endsWith(`.${hostedZone}`)) {
      throw new DeployConfigError(`DOMAIN_NAME ${name} is not inside the hosted zone DOMAIN_HOSTED_ZONE=${hostedZone}`);
    }
    return { name, hostedZone };
  }
  throw new DeployConfigError(
    'DOMAIN_NAME needs a certificate: DOMAIN_CERTIFICATE_ARN (an ACM certificate in us-east-1) or DOMAIN_HOSTED_ZONE (a Route 53 zone)',
  );
}

/** ORIGIN_SECRET_VERSION: a Secrets Manager VersionId (a UUID), when set. */
function originSecretVersion(env: NodeJS.ProcessEnv): string | undefined {
  const raw = settingOf(env, 'ORIGIN_SECRET_VERSION');
  if (raw !== undefined && !/^[A-Za-z0-9-]{32,64}$/.test(raw)) {
    throw new DeployConfigError(
      `ORIGIN_SECRET_VERSION must be the VersionId that put-secret-value printed for the origin secret (got "${raw}")`,
    );
  }
  return raw;
}

function adminPrebuilt(env: NodeJS.ProcessEnv): boolean {
  const raw = settingOf(env, 'ADMIN_PREBUILT');
  if (raw !== undefined && raw !== '0' && raw !== '1') throw new DeployConfigError(`ADMIN_PREBUILT must be 1 or 0 (got "${raw}")`);
  return raw === '1';
}

/**
 * The deploy configuration of `stage` from `env`. Errors ({@link DeployConfigError}): a production guard, a malformed
 * or contradictory domain, certificate, URL, topic or e-mail setting, a throttle that is not a positive integer.
 */
export function deployConfig(stage: string, env: NodeJS.ProcessEnv = process.env): DeployConfig {
  assertProductionGuards(stage, env);
  const domain = domainOf(env);
  const given = settingOf(env, 'PUBLIC_BASE_URL');
  const givenOrigin = given === undefined ? undefined : originOf(given);
  let publicBaseUrl: string | undefined;
  let publicBaseUrlSource: DeployConfig['publicBaseUrlSource'] = 'none';
  if (domain) {
    publicBaseUrl = `https://${domain.name}`;
    publicBaseUrlSource = 'domain';
    if (givenOrigin !== undefined && givenOrigin !== publicBaseUrl) {
      throw new DeployConfigError(
        `PUBLIC_BASE_URL (${givenOrigin}) differs from the custom domain's origin ${publicBaseUrl}: unset PUBLIC_BASE_URL, it is derived from DOMAIN_NAME`,
      );
    }
  } else if (givenOrigin !== undefined) {
    publicBaseUrl = givenOrigin;
    publicBaseUrlSource = 'setting';
  }

  const topicArn = settingOf(env, 'ALARM_TOPIC_ARN');
  const email = settingOf(env, 'ALARM_EMAIL');
  if (topicArn && !TOPIC_ARN.test(topicArn)) throw new DeployConfigError(`ALARM_TOPIC_ARN is not an SNS topic ARN (got "${topicArn}")`);
  if (email && !EMAIL.test(email)) throw new DeployConfigError(`ALARM_EMAIL is not an e-mail address (got "${email}")`);
  if (topicArn && email) {
    throw new DeployConfigError(
      'ALARM_EMAIL subscribes to the topic the Monitoring stack creates; with ALARM_TOPIC_ARN, subscribe to that topic instead',
    );
  }

  return {
    stage,
    production: stage === PRODUCTION_STAGE,
    domain,
    publicBaseUrl,
    publicBaseUrlSource,
    alarms: { topicArn, email },
    apiThrottle: { rate: intSetting(env, 'API_THROTTLE_RATE'), burst: intSetting(env, 'API_THROTTLE_BURST') },
    adminPrebuilt: adminPrebuilt(env),
    ...(originSecretVersion(env) ? { originSecretVersion: originSecretVersion(env) } : {}),
  };
}
