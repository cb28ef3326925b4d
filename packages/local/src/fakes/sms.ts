/**
 * Local fake of the Kavenegar-style sms API (providers.md §3), mounted at `/_local/sms`:
 *
 * - `GET|POST /_local/sms/v1/{API-KEY}/verify/lookup.json` with `receptor`, `template`, `token` (and `token2`,
 *   `token3`, `token10`, `token20`) (query or form): 200 `{ return: { status: 200, message }, entries: [...] }`;
 *   errors answer with HTTP status = `return.status`: 403 wrong key, 411 bad receptor (not 09xxxxxxxxx /
 *   +989xxxxxxxxx), 424 unknown template, 431 a token with whitespace or `_`, 406 empty required params.
 * - Templates ({@link smsTemplateTexts}): the approved texts, each rendered with the message's tokens as the
 *   receptor reads it: the sign-in code (SMS_TEMPLATE) and the parent's weekly report (SMS_PARENT_REPORT_TEMPLATE,
 *   its stop link's fixed part built from PUBLIC_BASE_URL, DESIGN §13).
 * - `GET /_local/sms/outbox?phone=<phone>` → `{ items: [{ phone, token, tokens, template, text, sentAt }] }`,
 *   newest last: the developer's "phone" (DESIGN §6); `text` is the message as the phone shows it.
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
  /** The first token (a sign-in code). */
  token: string;
  /** Every token the message carried, by name (`token`, `token2`, `token3`, `token10`, `token20`). */
  tokens: Record<string, string>;
  template: string;
  /** The message as the receptor reads it: the template's text with its tokens. */
  text: string;
  sentAt: string;
}

/** The token parameters of a verify/lookup call (Kavenegar), longest name first so `%token20` is not read as `%token2`. */
const TOKEN_NAMES = ['token20', 'token10', 'token3', 'token2', 'token'] as const;

/**
 * The texts of the approved templates, as registered with the provider (docs/deploy.md lists them): `%token`,
 * `%token2`, ... are replaced by the message's tokens. The parent report's stop link has its fixed part here (a link
 * in a token could be refused: Kavenegar 420), so the stage's address is part of the approved text.
 */
export function smsTemplateTexts(names: { signIn: string; parentReport?: string }, publicBaseUrl: string): Record<string, string> {
  return {
    [names.signIn]: 'جزیره ریاضی\nکد تأیید شما: %token\nاین کد را به هیچ‌کس ندهید.',
    ...(names.parentReport
      ? {
          [names.parentReport]: [
            'گزارش هفتگی جزیره ریاضی',
            'روزهای تمرین این هفته: %token از ۷',
            'امتیاز این هفته: %token2',
            'جزیره‌های تمام‌شده این هفته: %token3',
            'رشتهٔ روزهای تمرین: %token10 روز',
            `لغو این گزارش‌ها: ${publicBaseUrl}/api/parent/stop?token=%token20`,
          ].join('\n'),
        }
      : {}),
  };
}

/** `text` with each `%tokenN` replaced by its value. */
const render = (text: string, tokens: Record<string, string>): string =>
  TOKEN_NAMES.reduce((out, name) => out.replaceAll(`%${name}`, tokens[name] ?? ''), text);

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
};

const fail = (res: ServerResponse, status: number, message: string) => json(res, status, { return: { status, message }, entries: null });

/**
 * The fake, with its key and the approved templates named by the stack's settings `env` (SMS_TEMPLATE, default
 * `verify`; SMS_PARENT_REPORT_TEMPLATE, default `parent-report`, empty for none). Their texts
 * ({@link smsTemplateTexts}) hold the stage's address: the stack sets it with `setPublicBaseUrl` once it listens.
 * `publishedSettings`: what the stack publishes for the scripts when it plays the provider (its own key is no secret:
 * the job scripts then text the same outbox); none when the settings name a provider.
 */
export function createSmsFake(config: { apiKey: string; env: Record<string, string | undefined> }) {
  const names = { signIn: config.env.SMS_TEMPLATE || 'verify', parentReport: config.env.SMS_PARENT_REPORT_TEMPLATE ?? 'parent-report' };
  const publishedSettings = config.env.SMS_API_KEY === undefined ? ['SMS_API_KEY', 'SMS_BASE_URL'] : [];
  const options = { apiKey: config.apiKey, templates: smsTemplateTexts(names, '') };
  const outbox: SentSms[] = [];
  const faults = createFaults();
  /** The provider's checks, in its order; undefined when the message would be sent. */
  const refuse = (apiKey: string, receptor: string, tokens: Record<string, string>, template: string) => {
    const error = (status: number) => ({ status, message: SMS_ERRORS[status] as string });
    if (apiKey !== options.apiKey) return error(403);
    if (!receptor || !tokens.token || !template) return error(406);
    if (!/^(09\d{9}|\+989\d{9}|00989\d{9})$/.test(receptor)) return error(411);
    const text = options.templates[template];
    if (text === undefined) return error(424);
    if (Object.values(tokens).some((t) => /[\s_]/.test(t))) return error(431);
    return undefined;
  };
  let nextId = 8792343;
  return {
    outbox,
    publishedSettings,
    /** The stage's address, which the approved templates' texts hold (the parent report's stop link). */
    setPublicBaseUrl(base: string) {
      options.templates = smsTemplateTexts(names, base.replace(/\/+$/, ''));
    },
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
      const template = params.get('template') ?? '';
      const tokens = Object.fromEntries(TOKEN_NAMES.flatMap((name) => (params.get(name) ? [[name, params.get(name) as string]] : [])));
      const refusal = refuse(decodeURIComponent(match[1] as string), receptor, tokens, template);
      if (refusal) {
        fail(res, refusal.status, refusal.message);
        return true;
      }
      const now = new Date();
      const text = render(options.templates[template] as string, tokens);
      outbox.push({ phone: receptor, token: tokens.token as string, tokens, template, text, sentAt: now.toISOString() });
      json(res, 200, {
        return: { status: 200, message: 'تایید شد' },
        entries: [
          {
            messageid: nextId++,
            message: text,
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
