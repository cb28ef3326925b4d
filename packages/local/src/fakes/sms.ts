/**
 * Local fake of the Kavenegar-style sms API (providers.md §3), mounted at `/_local/sms`:
 *
 * - `GET|POST /_local/sms/v1/{API-KEY}/verify/lookup.json` with `receptor`, `token`, `template` (query or
 *   form): 200 `{ return: { status: 200, message }, entries: [...] }`; errors answer with HTTP status =
 *   `return.status`: 403 wrong key, 411 bad receptor (not 09xxxxxxxxx / +989xxxxxxxxx), 424 unknown
 *   template, 431 token with whitespace, 406 empty required params.
 * - `GET /_local/sms/outbox?phone=<phone>` → `{ items: [{ phone, token, template, sentAt }] }`, newest last:
 *   the developer's "phone" (DESIGN §6).
 * - `POST /_local/sms/faults` `{ status | code, count, kind?, ... }` (`faults.ts`): the next calls fail as the real
 *   provider does, with any status of its error table ({@link SMS_ERRORS}: 401 account disabled, 403 bad key, 409
 *   server busy, 411 receptor, 418 credit, 424 template, 428 voice needs digits, 429 IP restricted, 431 token
 *   format, 432 template without %token, 451 too many calls, 501 test account ...), an HTML 5xx from its proxy,
 *   a hang, a reset or a garbage body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { applyFault, createFaults, proxyErrorPage } from './faults';

/** Kavenegar's error statuses and messages (providers.md §3, from kavenegar.com/rest.html). */
export const SMS_ERRORS: Record<number, string> = {
  400: 'پارامترها ناقص هستند',
  401: 'حساب کاربری غیرفعال شده است',
  402: 'عملیات ناموفق بود',
  403: 'کد شناسائی API-Key معتبر نمی‌باشد',
  404: 'متد نامشخص است',
  405: 'متد Get/Post اشتباه است',
  406: 'پارامترهای اجباری خالی ارسال شده اند',
  407: 'دسترسی به اطلاعات مورد نظر برای شما امکان پذیر نیست',
  408: 'تنظیمات IP برای این متد الزامی است',
  409: 'سرور قادر به پاسخگوئی نیست بعدا تلاش کنید',
  411: 'دریافت کننده نامعتبر است',
  412: 'ارسال کننده نامعتبر است',
  413: 'پیام خالی است و یا طول پیام بیش از حد مجاز می‌باشد',
  414: 'حجم درخواست بیشتر از حد مجاز است',
  416: 'IP سرویس مبدا با تنظیمات مطابقت ندارد',
  417: 'تاریخ ارسال اشتباه است',
  418: 'اعتبار حساب شما کافی نیست',
  419: 'طول آرایه متن و گیرنده و فرستنده هم اندازه نیست',
  420: 'استفاده از لینک در متن پیام برای شما محدود شده است',
  422: 'داده ها به دلیل وجود کاراکتر نامناسب قابل پردازش نیست',
  424: 'الگوی مورد نظر پیدا نشد',
  426: 'استفاده از این متد نیازمند سرویس پیشرفته می‌باشد',
  427: 'استفاده از این خط نیازمند ایجاد سطح دسترسی می باشد',
  428: 'ارسال کد از طریق تماس تلفنی امکان پذیر نیست',
  429: 'IP محدود شده است',
  431: 'ساختار کد صحیح نمی‌باشد',
  432: 'پارامتر کد در متن پیام پیدا نشد',
  451: 'فراخوانی بیش از حد در بازه زمانی مشخص IP محدود شده',
  501: 'فقط امکان ارسال پیام تست به شماره صاحب حساب کاربری وجود دارد',
};

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
  const faults = createFaults();
  /** The provider's checks, in its order; undefined when the message would be sent. */
  const refuse = (apiKey: string, receptor: string, token: string, template: string) => {
    const error = (status: number) => ({ status, message: SMS_ERRORS[status] as string });
    if (apiKey !== options.apiKey) return error(403);
    if (!receptor || !token || !template) return error(406);
    if (!/^(09\d{9}|\+989\d{9}|00989\d{9})$/.test(receptor)) return error(411);
    if (template !== options.template) return error(424);
    if (/[\s_]/.test(token)) return error(431);
    return undefined;
  };
  let nextId = 8792343;
  return {
    outbox,
    /** Handles a request under `/_local/sms`; `path` is the rest of the path. Returns false when not its route. */
    faults: faults.queue,
    /** How many calls its faults answered. */
    faultCounts: faults.counts,
    async handle(req: IncomingMessage, res: ServerResponse, path: string, url: URL, body: Buffer): Promise<boolean> {
      if (faults.handle(req, res, path, body)) return true;
      if (path === '/outbox' && req.method === 'GET') {
        const phone = url.searchParams.get('phone');
        json(res, 200, { items: phone ? outbox.filter((m) => m.phone === phone) : outbox });
        return true;
      }
      const match = /^\/v1\/([^/]+)\/verify\/lookup\.json$/.exec(path);
      if (!match) return false;
      if (req.method !== 'GET' && req.method !== 'POST') {
        fail(res, 405, SMS_ERRORS[405] as string);
        return true;
      }
      const fault = faults.take(path);
      if (fault && (await applyFault(fault, res))) return true;
      if (fault && fault.kind === 'error') {
        const status = Number(fault.code ?? fault.status);
        if (fault.code === undefined && status >= 500) proxyErrorPage(res, status);
        else fail(res, status, fault.message ?? SMS_ERRORS[status] ?? 'خطا');
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
