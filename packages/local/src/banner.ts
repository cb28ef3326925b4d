/**
 * What `npm start` prints once the stack is up (`main.ts`): where the API, the fakes' pages and the control
 * routes are. Every address it names is a page or route that answers 200 (tests/readme.test.ts opens them).
 */
import type { LocalStack } from './stack';

/** The addresses the banner names, label → URL. */
export function bannerLinks(stack: Pick<LocalStack, 'baseUrl' | 'deps'>): Array<[label: string, url: string, note: string]> {
  const base = stack.baseUrl;
  const ai = stack.deps.settings.ai;
  return [
    ['API', `${base}/api/health`, 'health; every route is under /api/'],
    ['staff panel', `${base}/admin/`, 'sign in as a staff member: npm run createsuperuser; signed in, the API reference is at /api/docs/'],
    ['SMS outbox', `${base}/_local/sms/outbox`, 'the fake sms provider: codes sent (?phone=...)'],
    ['gateway', `${base}/_local/gateway/`, 'the fake payment gateway: its payments; pay links lead to its StartPay page'],
    ...(stack.deps.settings.marketplace.baseUrl.startsWith(base)
      ? [
          [
            'marketplace',
            `${base}/_local/marketplace/requests`,
            'the fake marketplace: calls it received; mint purchase tokens with POST /_local/marketplace/purchases',
          ] as [string, string, string],
        ]
      : []),
    ['frontend', `${base}/`, 'stand-in page where payment results land'],
    ...(ai.apiKey && ai.baseUrl.startsWith(base)
      ? [['tutor model', `${base}/_local/llm/requests`, 'the fake model: what it was sent'] as [string, string, string]]
      : []),
  ];
}

/** The startup banner. */
export function banner(stack: Pick<LocalStack, 'baseUrl' | 'deps'>): string {
  const lines = bannerLinks(stack).map(([label, url, note]) => `    ${label.padEnd(12)}${url}  (${note})`);
  return `\n  mathisland is running\n${lines.join('\n')}\n  Ctrl-C stops it (and DynamoDB Local).\n`;
}
