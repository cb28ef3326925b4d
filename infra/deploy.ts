/**
 * Deploy-time settings of a stage: read by the stacks when `sst deploy` (or `npm run build`) synthesizes them, from
 * the deploying shell or the `.env.<stage>` file SST loads. They shape the infrastructure (domain, alarms, API
 * limits) and never reach a function's environment; the service's own settings are `infra/settings.ts`.
 *
 * Parsed and checked by `stacks/config.ts`, which refuses a bad combination with a message naming the setting.
 */
export interface DeploySettingDecl {
  kind: 'string' | 'int' | 'email' | 'arn';
  default?: string;
  doc: string;
}

export const deploySettingDecls = {
  DOMAIN_NAME: {
    kind: 'string',
    doc: 'The stage’s own domain (e.g. `app.example.com`); PUBLIC_BASE_URL becomes `https://<DOMAIN_NAME>`. Needs DOMAIN_CERTIFICATE_ARN or DOMAIN_HOSTED_ZONE.',
  },
  DOMAIN_CERTIFICATE_ARN: {
    kind: 'arn',
    doc: 'ACM certificate for DOMAIN_NAME in us-east-1 (CloudFront reads certificates only there); DNS is yours: point DOMAIN_NAME at the output DistributionDomain (CNAME).',
  },
  DOMAIN_HOSTED_ZONE: {
    kind: 'string',
    doc: 'Route 53 hosted zone of DOMAIN_NAME (e.g. `example.com`): the deploy creates the certificate (DNS-validated, us-east-1) and the A/AAAA alias records.',
  },
  ALARM_TOPIC_ARN: {
    kind: 'arn',
    doc: 'An existing SNS topic the alarms notify (e.g. your on-call topic). Unset: the Monitoring stack creates one.',
  },
  ALARM_EMAIL: {
    kind: 'email',
    doc: 'An address subscribed to the topic the Monitoring stack creates (confirm the e-mail AWS sends); not with ALARM_TOPIC_ARN.',
  },
  API_THROTTLE_RATE: {
    kind: 'int',
    default: '200',
    doc: 'API Gateway stage throttle: steady requests per second over all routes (docs/deploy.md sizes it for 10,000 daily learners).',
  },
  API_THROTTLE_BURST: { kind: 'int', default: '400', doc: 'API Gateway stage throttle: burst (token bucket size) over all routes.' },
  ORIGIN_SECRET_VERSION: {
    kind: 'string',
    doc: 'After a rotation of the origin secret by hand: the VersionId `aws secretsmanager put-secret-value` printed for the new value, so this deploy moves CloudFront to it (docs/deploy.md "The edge"). Unset: the value current when the distribution was last updated.',
  },
  ADMIN_PREBUILT: {
    kind: 'string',
    doc: '`1`: deploy the staff panel already built in packages/admin/dist (`npm run build:admin`, e.g. the build CI tested) instead of building it during the deploy.',
  },
} as const satisfies Record<string, DeploySettingDecl>;

export type DeploySettingName = keyof typeof deploySettingDecls;

/**
 * Settings of `infra/settings.ts` that must not be set when deploying the production stage (DESIGN §4): debug mode
 * and its master code, and the fixed demo logins. Synthesis refuses them (stacks/config.ts); the service also refuses
 * them at start-up when they come from the stage secret.
 */
export const forbiddenInProduction = ['DEBUG', 'DEBUG_MASTER_OTP', 'FIXED_OTP_LOGINS'] as const;
