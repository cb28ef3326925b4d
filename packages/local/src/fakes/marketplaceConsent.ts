/**
 * The fake marketplace's OAuth consent page (providers.md §2 "Auth A"; DESIGN §6): what the owner of the marketplace
 * account sees at `…/devapi/v2/auth/authorize/?response_type=code&access_type=offline&redirect_uri&client_id&state`
 * (also served at `/_local/marketplace/authorize`). Approve POSTs `action=approve` to the same URL and is answered
 * 302 to `redirect_uri?code=<one-time code>&state=<state>`; Deny to `redirect_uri?error=access_denied&state=<state>`,
 * as the real one redirects. An unknown client or a redirect_uri other than the client's registered one is refused
 * on the page itself (no redirect to an unregistered address).
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from './html';

interface ConsentOptions {
  packageName: string;
  clientId?: string;
  redirectUri?: string;
}

/** The error of the consent request in `url`, or undefined when it may be shown. */
function refusal(url: URL, options: ConsentOptions): string | undefined {
  const q = url.searchParams;
  if (!options.clientId || q.get('client_id') !== options.clientId) return 'Unknown client_id.';
  if (q.get('response_type') !== 'code') return 'response_type must be code.';
  if (!q.get('redirect_uri') || q.get('redirect_uri') !== options.redirectUri)
    return 'redirect_uri is not the one registered for this client.';
  return undefined;
}

function page(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html>
<html lang="fa" dir="rtl"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>بازار آزمایشی: اجازهٔ دسترسی</title>
<style>body{font-family:sans-serif;max-width:30rem;margin:3rem auto;padding:0 1rem}.box{border:1px solid #ccc;border-radius:.5rem;padding:1rem}
button{font-size:1.1rem;padding:.6rem 1.4rem;margin:.3rem;border-radius:.4rem;border:0;cursor:pointer}#approve{background:#1a7f37;color:#fff}#deny{background:#ddd}</style>
</head><body><h1>بازار آزمایشی (local fake)</h1><div class="box">${body}</div></body></html>`);
}

/** `GET`: the consent page, or a 400 page for a request the marketplace would refuse. */
export function consentPage(res: ServerResponse, url: URL, options: ConsentOptions): void {
  const error = refusal(url, options);
  if (error) {
    page(res, 400, `<p id="error">${escapeHtml(error)}</p>`);
    return;
  }
  page(
    res,
    200,
    `<p>برنامهٔ <code>${escapeHtml(url.searchParams.get('client_id') ?? '')}</code> می‌خواهد خریدهای درون‌برنامه‌ای بستهٔ
<code id="package">${escapeHtml(options.packageName)}</code> را بررسی کند (access_type=${escapeHtml(url.searchParams.get('access_type') ?? '')}).</p>
<form method="post" action="${escapeHtml(url.pathname + url.search)}">
<button id="approve" name="action" value="approve">تأیید (Approve)</button><button id="deny" name="action" value="deny">رد (Deny)</button>
</form>`,
  );
}

/** `POST action=approve|deny`: 302 back to the client's redirect URI, a code from `issueCode` on approval. */
export function consentRedirect(
  res: ServerResponse,
  url: URL,
  body: Buffer,
  options: ConsentOptions,
  issueCode: (redirectUri: string) => string,
): void {
  const error = refusal(url, options);
  if (error) {
    page(res, 400, `<p id="error">${escapeHtml(error)}</p>`);
    return;
  }
  const action = new URLSearchParams(body.toString('utf8')).get('action');
  const redirectUri = url.searchParams.get('redirect_uri') as string;
  const target = new URL(redirectUri);
  if (action === 'approve') target.searchParams.set('code', issueCode(redirectUri));
  else if (action === 'deny') target.searchParams.set('error', 'access_denied');
  else {
    consentPage(res, url, options);
    return;
  }
  const state = url.searchParams.get('state');
  if (state !== null) target.searchParams.set('state', state);
  res.writeHead(302, { location: target.toString() });
  res.end();
}
