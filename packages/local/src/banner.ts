/**
 * What `npm start` prints once the stack is up (`main.ts`): where the API, the fakes' pages and the control
 * routes are, and which providers are on. A provider switched off (its setting given as an empty string, e.g.
 * `SMS_API_KEY=`, `GATEWAY_MERCHANT_ID=`, `OPENAI_API_KEY=`; stack.ts) is not listed with a page: the banner says
 * plainly that it is off and what answers fail for it. A provider pointed at a real service is named with its
 * address. Every address the banner names is a page or route that answers 200 (tests/readme.test.ts opens them).
 */
import { credentialMode } from '@mathisland/core/marketplace';
import type { LocalStack } from './stack';

type Stack = Pick<LocalStack, 'baseUrl' | 'deps'>;
type Link = [label: string, url: string, note: string];

/** One provider as the banner reports it. */
interface ProviderState {
  name: string;
  on: boolean;
  /** The address its adapter calls (a local fake's starts with the stack's base URL). */
  baseUrl: string;
  /** Its fake's page, shown when it is on and the fake serves it. */
  link: Link;
  /** What an empty setting switched off, and what then fails. */
  off: string;
}

/** The sms, gateway, marketplace and tutor-model providers of `stack`, on or off (see the module doc). */
export function providerStates(stack: Stack): ProviderState[] {
  const base = stack.baseUrl;
  const { deps } = stack;
  const settings = deps.settings;
  return [
    {
      name: 'SMS',
      on: deps.sms.configured,
      baseUrl: settings.sms.baseUrl,
      link: ['SMS outbox', `${base}/_local/sms/outbox`, 'the fake sms provider: codes sent (?phone=...)'],
      off: 'SMS_API_KEY is empty: no sign-in code is sent (POST /api/auth/otp/request answers 503 sms_unavailable)',
    },
    {
      name: 'gateway',
      on: deps.gateway.configured,
      baseUrl: settings.gateway.baseUrl,
      link: ['gateway', `${base}/_local/gateway/`, 'the fake payment gateway: its payments; pay links lead to its StartPay page'],
      off: 'GATEWAY_MERCHANT_ID is empty: a purchase with something to pay answers 503 gateway_unavailable (free orders still work)',
    },
    {
      name: 'marketplace',
      on: Boolean(deps.marketplace.packageName) && credentialMode(deps) !== 'none',
      baseUrl: settings.marketplace.baseUrl,
      link: [
        'marketplace',
        `${base}/_local/marketplace/requests`,
        'the fake marketplace: calls it received; mint purchase tokens with POST /_local/marketplace/purchases',
      ],
      off: 'no MARKETPLACE_API_SECRET nor OAuth client (or no MARKETPLACE_PACKAGE_NAME): marketplace purchases cannot be verified',
    },
    {
      name: 'tutor model',
      on: Boolean(settings.ai.apiKey),
      baseUrl: settings.ai.baseUrl,
      link: ['tutor model', `${base}/_local/llm/requests`, 'the fake model: what it was sent'],
      off: 'OPENAI_API_KEY is empty: the tutor is off (POST /api/ai/ask answers 503 assistant_unavailable)',
    },
  ];
}

const isFake = (stack: Stack, provider: ProviderState) => provider.baseUrl.startsWith(stack.baseUrl);

/** The addresses the banner names, label → URL: the API, the panel, the frontend stand-in, and each fake that is on. */
export function bannerLinks(stack: Stack): Link[] {
  const base = stack.baseUrl;
  const fakes = providerStates(stack)
    .filter((p) => p.on && isFake(stack, p))
    .map((p) => p.link);
  return [
    ['API', `${base}/api/health`, 'health; every route is under /api/'],
    ['staff panel', `${base}/admin/`, 'sign in as a staff member: npm run createsuperuser; signed in, the API reference is at /api/docs/'],
    ...fakes,
    ['frontend', `${base}/`, 'stand-in page where payment results land'],
  ];
}

/** The startup banner: the links, then the providers that are real, then those that are off. */
export function banner(stack: Stack): string {
  const providers = providerStates(stack);
  const lines = bannerLinks(stack).map(([label, url, note]) => `    ${label.padEnd(12)}${url}  (${note})`);
  const real = providers.filter((p) => p.on && !isFake(stack, p)).map((p) => `    ${p.name.padEnd(12)}real provider at ${p.baseUrl}`);
  const off = providers.filter((p) => !p.on).map((p) => `    ${p.name.padEnd(12)}OFF: ${p.off}`);
  return [
    '',
    '  mathisland is running',
    ...lines,
    ...(real.length ? ['  real providers:', ...real] : []),
    ...(off.length ? ['  switched off:', ...off] : []),
    '  Ctrl-C stops it (and DynamoDB Local).',
    '',
  ].join('\n');
}
