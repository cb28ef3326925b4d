/**
 * A stand-in for the web app at `/` of the local server (never deployed): under `npm start` FRONTEND_URL
 * defaults to the server's own `/`, where payment results land as `/?orderId=<id>&status=<status>`. The page
 * shows that result and links to the API, so a purchase tried by hand ends somewhere readable.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml } from './html';

/** Handles `GET /` (and HEAD); other methods are left to the API's fallback. */
export function frontendStandIn(req: IncomingMessage, res: ServerResponse, _path: string, url: URL): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const orderId = url.searchParams.get('orderId');
  const status = url.searchParams.get('status');
  const result =
    orderId && status
      ? `<p>Payment result: order <strong id="orderId">${escapeHtml(orderId)}</strong> is <strong id="status">${escapeHtml(status)}</strong>.</p>`
      : '<p>No payment result in the address.</p>';
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(`<!doctype html><html><head><meta charset="utf-8"><title>mathisland (local frontend stand-in)</title></head>
<body style="font-family:sans-serif;max-width:36rem;margin:3rem auto">
<h1>mathisland: local frontend stand-in</h1>
${result}
<p>The real web app is not part of this repository. API: <a href="/api/health">/api/health</a>; plans: <a href="/api/plans">/api/plans</a>.</p>
</body></html>`);
  return true;
}
