/**
 * Local fake of the Kavenegar-style sms API (providers.md §3), mounted at `/_local/sms`:
 *
 * - `GET|POST /_local/sms/v1/{API-KEY}/verify/lookup.json` with `receptor`, `token`, `template` (query or
 *   form): 200 `{ return: { status: 200, message }, entries: [...] }`; errors answer with HTTP status =
 *   `return.status`: 403 wrong key, 411 bad receptor (not 09xxxxxxxxx / +989xxxxxxxxx), 424 unknown
 *   template, 431 token with whitespace, 406 empty required params.
 * - `GET /_local/sms/outbox?phone=<phone>` → `{ items: [{ phone, token, template, sentAt }] }`, newest last:
 *   the developer's "phone" (DESIGN §6).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface SentSms {
  phone: string;
  token: string;
  template: string;
  sentAt: string;
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const fail = (res: ServerResponse, status: number, message: string) => json(res, status, { return: { status, message }, entries: null });

export function createSmsFake(options: { apiKey: string; template: string }) {
  const outbox: SentSms[] = [];
  /** The provider's checks, in its order; undefined when the message would be sent. */
  const refuse = (apiKey: string, receptor: string, token: string, template: string) => {
    if (apiKey !== options.apiKey) return { status: 403, message: 'کلید API نامعتبر است' };
    if (!receptor || !token || !template) return { status: 406, message: 'پارامترهای اجباری خالی است' };
    if (!/^(09\d{9}|\+989\d{9}|00989\d{9})$/.test(receptor)) return { status: 411, message: 'گیرنده نامعتبر است' };
    if (template !== options.template) return { status: 424, message: 'الگو یافت نشد' };
    if (/[\s_]/.test(token)) return { status: 431, message: 'ساختار کد صحیح نمی باشد' };
    return undefined;
  };
  let nextId = 8792343;
  return {
    outbox,
    /** Handles a request under `/_local/sms`; `path` is the rest of the path. Returns false when not its route. */
    handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL, body: Buffer): boolean {
      if (path === '/outbox' && req.method === 'GET') {
        const phone = url.searchParams.get('phone');
        json(res, 200, { items: phone ? outbox.filter((m) => m.phone === phone) : outbox });
        return true;
      }
      const match = /^\/v1\/([^/]+)\/verify\/lookup\.json$/.exec(path);
      if (!match) return false;
      if (req.method !== 'GET' && req.method !== 'POST') {
        fail(res, 405, 'متد نامعتبر');
        return true;
      }
      const params = req.method === 'POST' ? new URLSearchParams(body.toString('utf8')) : url.searchParams;
      const receptor = params.get('receptor') ?? '';
      const token = params.get('token') ?? '';
      const template = params.get('template') ?? '';
      const refusal = refuse(decodeURIComponent(match[1] as string), receptor, token, template);
      if (refusal) {
        fail(res, refusal.status, refusal.message);
        return true;
      }
      const now = new Date();
      outbox.push({ phone: receptor, token, template, sentAt: now.toISOString() });
      json(res, 200, {
        return: { status: 200, message: 'تایید شد' },
        entries: [
          {
            messageid: nextId++,
            message: `کد ورود شما: ${token}`,
            status: 5,
            statustext: 'ارسال به مخابرات',
            sender: '10004346',
            receptor,
            date: Math.floor(now.getTime() / 1000),
            cost: 120,
          },
        ],
      });
      return true;
    },
  };
}
