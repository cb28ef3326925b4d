/**
 * The HTML pages of the fake payment gateway (`gateway.ts`): the StartPay page a buyer sees, its 404, and the
 * fake's own index at `/_local/gateway/` (the page the startup banner names) listing the payments it holds.
 */
import type { ServerResponse } from 'node:http';
import type { FakePayment } from './gatewayWire';
import { escapeHtml } from './html';

const page = (res: ServerResponse, status: number, title: string, body: string) => {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html>
<html lang="fa" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title}</title>
<style>body{font-family:sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}.box{border:1px solid #ccc;border-radius:.5rem;padding:1rem}
button{font-size:1.1rem;padding:.6rem 1.4rem;margin:.3rem;border-radius:.4rem;border:0;cursor:pointer}#pay{background:#1a7f37;color:#fff}#cancel{background:#ddd}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:start}code{direction:ltr;unicode-bidi:embed}</style>
</head><body>
${body}
</body></html>`);
};

/** The buyer's page of `payment`: Pay and Cancel buttons, or a way back once it is finished. */
export function startPayPage(res: ServerResponse, payment: FakePayment): void {
  const finished = payment.state !== 'new';
  const toman = payment.currency === 'IRR' ? payment.amount / 10 : payment.amount;
  page(
    res,
    200,
    'درگاه پرداخت آزمایشی',
    `<h1>درگاه پرداخت آزمایشی (local fake)</h1>
<div class="box">
<p>${escapeHtml(payment.description)}</p>
<p>مبلغ: <strong id="amount">${payment.amount.toLocaleString('en-US')}</strong> ${payment.currency === 'IRR' ? 'ریال' : 'تومان'} (${toman.toLocaleString('en-US')} تومان)</p>
<p>کد پیگیری: <code id="authority">${escapeHtml(payment.authority)}</code></p>
${finished ? `<p id="finished">این پرداخت پایان یافته است (${payment.state}).</p>` : ''}
<form method="post" action="/_local/gateway/pg/StartPay/${encodeURIComponent(payment.authority)}">
${
  finished
    ? '<button id="back" name="action" value="back">بازگشت به سایت پذیرنده</button>'
    : '<button id="pay" name="action" value="pay">پرداخت</button><button id="cancel" name="action" value="cancel">انصراف</button>'
}
</form></div>`,
  );
}

/** The 404 of an unknown authority's start page. */
export function notFoundPage(res: ServerResponse): void {
  page(res, 404, '404', '<p>Invalid authority.</p>');
}

/** `/_local/gateway/`: what the fake is, its payments (newest first) with their start pages, its test hooks. */
export function indexPage(res: ServerResponse, payments: FakePayment[], registeredDomain: string | null): void {
  const rows = payments
    .slice()
    .reverse()
    .map(
      (p) =>
        `<tr><td><a href="/_local/gateway/pg/StartPay/${encodeURIComponent(p.authority)}"><code>${escapeHtml(p.authority)}</code></a></td>` +
        `<td>${escapeHtml(p.orderId ?? '')}</td><td>${p.amount.toLocaleString('en-US')} ${p.currency}</td><td>${p.state}</td><td>${p.createdAt.toISOString()}</td></tr>`,
    )
    .join('\n');
  page(
    res,
    200,
    'local payment gateway',
    `<div dir="ltr"><h1>Local payment gateway (fake, ZarinPal v4 wire protocol)</h1>
<p>Pay links of the API lead to a payment's start page here (Pay / Cancel). JSON API under
<code>/_local/gateway/pg/v4/payment/</code>: request, verify, unVerified, inquiry, reverse.
Test hooks: <code>POST /_local/gateway/faults</code> (next calls fail with a gateway code, an HTTP status, a hang
or garbage), <code>POST /_local/gateway/terminal</code> (registered callback domain: ${escapeHtml(registeredDomain ?? 'any')}),
<code>GET /_local/gateway/payments</code> (this list as JSON).</p>
<table><thead><tr><th>authority</th><th>order</th><th>amount</th><th>state</th><th>created</th></tr></thead>
<tbody id="payments">
${rows || '<tr><td colspan="5">No payments yet: buy a plan with paymentMethod "gateway" and open its paymentUrl.</td></tr>'}
</tbody></table></div>`,
  );
}
