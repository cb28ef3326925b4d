/**
 * Issue 25 §2 (DESIGN §9 export): `GET /api/admin/<resource>/export.csv` answers every row the list selects under the
 * same filters, streamed page by page (more rows than one page holds here), as UTF-8 CSV with a byte order mark, ISO
 * and Jalali time columns and formula-safe cells; the export is itself a history entry; errors before the first byte
 * are JSON.
 */
import { createTicket } from '@mathisland/core/support';
import { describe, expect, it } from 'vitest';
import { EXPORT_PAGE_SIZE } from '../packages/functions/src/lib/exports';
import { admin, buyAndPay, fetchManual, PLAN_30, staffSession } from './support/payments';
import { signIn, useStack } from './support/stack';

const NOW = Date.UTC(2026, 10, 20, 8, 0, 0); // 1405/08/29 11:30 Tehran

/** The rows of a CSV text (RFC 4180: quoted fields, doubled quotes, CRLF). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  expect(cell, 'the CSV ends with CRLF').toBe('');
  return rows;
}

describe('CSV export', () => {
  const stack = useStack({ now: NOW });

  it('exports every ticket the filters select, more than a page, with a BOM, Jalali times and formula-safe cells', async () => {
    const learner = await signIn(stack);
    const subjects = [
      '=HYPERLINK("http://evil.example","click")',
      '+98 912 000 0000',
      '-1+2',
      '@SUM(A1)',
      'کمک، لطفاً',
      'line one\nline two',
    ];
    const total = EXPORT_PAGE_SIZE + 30;
    for (let i = 0; i < total; i++) {
      await createTicket(stack.deps, { id: learner.userId }, { subject: subjects[i] ?? `Question ${i}`, text: 'Help' });
    }
    const { cookie, username } = await staffSession(stack, { permissions: ['view_ticket'] });
    const res = await admin(stack, cookie, 'GET', '/api/admin/tickets/export.csv');
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="tickets-2026-11-20.csv"');
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    // The byte order mark (fetch's text() drops it, as a spreadsheet does).
    stack.clock.advance(1);
    const bytes = new Uint8Array(
      await (await fetch(`${stack.baseUrl}/api/admin/tickets/export.csv`, { headers: { cookie } })).arrayBuffer(),
    );
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual([
      'id',
      'userId',
      'userPublicId',
      'subject',
      'status',
      'messageCount',
      'createdAt',
      'createdAtJalali',
      'updatedAt',
      'updatedAtJalali',
    ]);
    expect(rows).toHaveLength(total);
    expect(new Set(rows.map((r) => r[0])).size).toBe(total);
    const bySubject = new Map(rows.map((r) => [r[3], r]));
    // Formula-starting text gets a leading quote (a tab or CR start: lib/csv.test.ts); Persian, commas and line breaks survive quoting.
    for (const s of subjects.slice(0, 4)) expect(bySubject.has(`'${s}`), s).toBe(true);
    expect(bySubject.has('کمک، لطفاً')).toBe(true);
    expect(bySubject.has('line one\nline two')).toBe(true);
    expect(res.text).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
    expect(rows[0]?.slice(6)).toEqual([
      '2026-11-20T08:00:00.000Z',
      '1405/08/29 11:30:00',
      '2026-11-20T08:00:00.000Z',
      '1405/08/29 11:30:00',
    ]);

    // The list's filters apply; the export is recorded with them.
    const root = await staffSession(stack, { isSuperuser: true });
    const closed = rows.slice(0, 3).map((r) => Number(r[0]));
    await admin(stack, root.cookie, 'POST', '/api/admin/tickets/bulk', { ids: closed, action: 'close' });
    stack.clock.advance(1); // entries of one millisecond have no order among them
    const filtered = await admin(stack, cookie, 'GET', '/api/admin/tickets/export.csv?status=closed');
    expect(
      parseCsv(filtered.text)
        .slice(1)
        .map((r) => Number(r[0]))
        .sort(),
    ).toEqual(closed.sort());
    const exports = (await admin(stack, root.cookie, `GET`, `/api/admin/history?action=export&staff=${username}`)).body.items;
    expect(exports.map((e: { model: string; objectRepr: string; objectId: null }) => [e.model, e.objectRepr, e.objectId])).toEqual([
      ['ticket', 'tickets/export.csv status=closed', null],
      ['ticket', 'tickets/export.csv', null],
      ['ticket', 'tickets/export.csv', null],
    ]);
  });

  it('exports payment events with the list’s columns: the ignored marker of a duplicate callback included', async () => {
    const s = await signIn(stack);
    const { orderId, callbackUrl } = await buyAndPay(stack, s, PLAN_30);
    await fetchManual(callbackUrl); // the browser's back button: a duplicate, recorded as ignored
    const root = await staffSession(stack, { isSuperuser: true });
    const res = await admin(stack, root.cookie, 'GET', `/api/admin/payment-events/export.csv?orderId=${orderId}&kind=payment_result`);
    expect(res.status, res.text).toBe(200);
    const [header, ...rows] = parseCsv(res.text);
    expect(header).toEqual(expect.arrayContaining(['ignored', 'marketplaceStatus', 'validUntil', 'autoRenewing']));
    const column = (name: string) => rows.map((r) => r[header!.indexOf(name)]);
    expect(column('result').sort()).toEqual(['paid', 'unchanged']);
    expect(column('ignored').sort()).toEqual(['false', 'true']);
  });

  it('exports whole lists and the history, and answers JSON errors before the first byte', async () => {
    const root = await staffSession(stack, { isSuperuser: true });
    const plans = await admin(stack, root.cookie, 'GET', '/api/admin/plans/export.csv?onSale=true');
    const [header, ...rows] = parseCsv(plans.text);
    expect(header?.slice(0, 3)).toEqual(['id', 'title', 'price']);
    const listed = (await admin(stack, root.cookie, 'GET', '/api/admin/plans?onSale=true&limit=100')).body.items;
    expect(rows.map((r) => Number(r[0]))).toEqual(listed.map((p: { id: number }) => p.id));

    const history = await admin(stack, root.cookie, 'GET', '/api/admin/history/export.csv?action=export');
    expect(history.status, history.text).toBe(200);
    expect(parseCsv(history.text)[0]).toEqual(['id', 'at', 'atJalali', 'staff', 'action', 'model', 'objectId', 'objectRepr', 'changes']);

    const viewer = await staffSession(stack, { permissions: ['view_plan'] });
    const denied = await admin(stack, viewer.cookie, 'GET', '/api/admin/tickets/export.csv');
    expect([denied.status, denied.headers.get('content-type'), denied.body.code]).toEqual([
      403,
      'application/json; charset=utf-8',
      'permission_denied',
    ]);
    expect((await admin(stack, viewer.cookie, 'GET', '/api/admin/history/export.csv')).status).toBe(403);
    for (const bad of ['status=lost', 'limit=10', 'cursor=abc']) {
      const refused = await admin(stack, root.cookie, 'GET', `/api/admin/tickets/export.csv?${bad}`);
      expect([refused.status, refused.body.code], bad).toEqual([400, 'validation_error']);
    }
    const none = await admin(stack, undefined, 'GET', '/api/admin/orders/export.csv');
    expect([none.status, none.body.code]).toEqual([401, 'not_authenticated']);
  });
});
