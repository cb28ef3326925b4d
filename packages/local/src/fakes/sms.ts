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
      if (decodeURIComponent(match[1] as string) !== options.apiKey) return fail(res, 403, 'کلید API نامعتبر است'), true;
      if (!receptor || !token || !template) return fail(res, 406, 'پارامترهای اجباری خالی است'), true;
      if (!/^(09\d{9}|\+989\d{9}|00989\d{9})$/.test(receptor)) return fail(res, 411, 'گیرنده نامعتبر است'), true;
      if (template !== options.template) return fail(res, 424, 'الگو یافت نشد'), true;
      if (/[\s_]/.test(token)) return fail(res, 431, 'ساختار کد صحیح نمی باشد'), true;
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
