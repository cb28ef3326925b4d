/**
 * Endpoint group `adminexport` (issue 25; DESIGN §9 export): `GET /api/admin/<resource>/export.csv` for every admin
 * list, with the list's filters and permission. A streamed group: a Lambda function URL in RESPONSE_STREAM mode behind
 * CloudFront (stacks/Tutor.ts, stacks/Web.ts), so an export is written page by page as the pages are read, with no
 * cap: past API Gateway's 30 s and the 6 MB of a buffered Lambda answer (docs/decisions.md "CSV export").
 *
 * Before the first byte: permission, filters and the first page (any error is the usual JSON), then the export's
 * history entry (action `export`, the filters in `objectRepr`). Then the CSV (lib/csv.ts: UTF-8 with a BOM, a header
 * row, ISO and Jalali times, formula-safe cells), one chunk per page of {@link EXPORT_PAGE_SIZE} rows. A failure after
 * the first byte cuts the stream (the browser reports the download as failed, never a silently short file).
 */
import { Readable } from 'node:stream';
import type { Deps } from '@mathisland/core';
import { tehranDay } from '@mathisland/core/calendar';
import { recordHistory } from '@mathisland/core/history';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import * as z from 'zod';
import { adminexportRoutes } from '../../../../infra/routes/adminexport';
import { BOM, headerLine, rowLines } from '../lib/csv';
import { EXPORTS, type ExportSpec, type RowPage } from '../lib/exports';
import { defineGroup } from '../lib/group';
import { requireHistoryReader } from '../lib/historyLists';
import { HttpResponse } from '../lib/http';
import { text } from '../lib/responses';
import { type AdminInput, type RouteDef, route } from '../lib/route';
import { streaming } from '../lib/streaming';

const csvAnswer = text('text/csv; charset=utf-8', z.string(), 'The CSV: a byte order mark, a header row, then every matching row', {
  streamed: true,
  headers: {
    'Content-Disposition': {
      schema: z.string(),
      description: 'attachment; filename="<resource>-<Tehran day>.csv"',
    },
  },
});

/** The export's filters as sent (`status=paid from=2026-11-01`), for its history entry. */
const filtersOf = (event: APIGatewayProxyEventV2): string =>
  Object.entries(event.queryStringParameters ?? {})
    .map(([k, v]) => `${k}=${v ?? ''}`)
    .sort()
    .join(' ');

/** The CSV of `spec` from its first page on, one chunk per page. */
async function* csvChunks(deps: Deps, spec: ExportSpec, filters: object, first: RowPage): AsyncGenerator<string> {
  yield BOM + headerLine(spec.columns);
  let page = first;
  for (;;) {
    if (page.items.length) yield rowLines(spec.columns, page.items);
    if (!page.nextCursor) return;
    page = await spec.page(deps, filters, page.nextCursor);
  }
}

function exporter(spec: ExportSpec) {
  return async ({ deps, staff, query, event }: AdminInput<undefined, object>) => {
    if (!spec.permission) await requireHistoryReader(deps, staff, query);
    const first = await spec.page(deps, query);
    const now = deps.clock.now();
    const filters = filtersOf(event);
    await recordHistory(deps, {
      at: now,
      staff: staff.username,
      action: 'export',
      model: spec.model,
      objectId: null,
      objectRepr: `${spec.resource}/export.csv${filters ? ` ${filters}` : ''}`,
      changes: {},
    });
    const name = `${spec.resource.replace('/', '-')}-${tehranDay(now)}.csv`;
    return new HttpResponse(200, Readable.from(csvChunks(deps, spec, query, first)), {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': `attachment; filename="${name}"`,
    });
  };
}

const definitions: Record<string, RouteDef> = Object.fromEntries(
  EXPORTS.map((spec) => [
    `GET /api/admin/${spec.resource}/export.csv`,
    route.admin({
      ...(spec.permission ? { permission: spec.permission } : {}),
      query: spec.query,
      // What every export shares is said once, in the adminexport tag (openapi/intro.ts).
      description: `Every row \`GET /api/admin/${spec.resource}\` lists under the same filters (no \`cursor\`, no \`limit\`).`,
      responses: { 200: csvAnswer },
      ...(spec.permission
        ? {}
        : { errors: { permission_denied: 'Neither `view_logentry` nor, for one record’s history, that record’s view permission.' } }),
      run: exporter(spec),
    }),
  ]),
);

export const { handler, createHandler, routes } = defineGroup(adminexportRoutes, definitions, { streaming });
