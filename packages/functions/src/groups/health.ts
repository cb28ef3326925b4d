/**
 * Endpoint group `health`: `GET /api/health` (spec Endpoints). 200 when healthy; 503 on a real failure (the table
 * does not answer, migrations missing) with `Retry-After` like every 503 (DESIGN §11).
 */
import { checkHealth, healthDetails } from '@mathisland/core/health';
import * as z from 'zod';
import { healthRoutes } from '../../../../infra/routes/health';
import { defineGroup } from '../lib/group';
import { HttpResponse, presentsInternalKey } from '../lib/http';
import { json } from '../lib/responses';
import { type RouteInput, route } from '../lib/route';
import { responseShape } from '../lib/shapes';

/** Seconds a caller (a load balancer, a deploy check) should wait before asking again after a 503. */
export const HEALTH_RETRY_AFTER_SECONDS = 10;

const answer = (ok: boolean, body: unknown) =>
  ok ? new HttpResponse(200, body) : new HttpResponse(503, body, { 'retry-after': String(HEALTH_RETRY_AFTER_SECONDS) });

const count = z.number().int().min(0);
/** `{ status }`, and with a correct X-Internal-Key the operators' details. */
const Health = responseShape(() =>
  z
    .object({
      status: z.enum(['ok', 'error']),
      stage: z.string().optional(),
      database: z.object({ ok: z.boolean(), error: z.string().optional() }).optional(),
      unappliedMigrations: z.array(z.string()).optional(),
      cache: z.object({ content: z.object({ loaded: z.boolean(), ageSeconds: count.nullable() }) }).optional(),
      counts: z.object({ grades: count, lessons: count, questions: count }).optional(),
      integrations: z
        .object({ sms: z.boolean(), gateway: z.boolean(), marketplace: z.boolean(), marketplaceDynamicPrice: z.boolean(), ai: z.boolean() })
        .optional(),
      warnings: z.array(z.string()).optional(),
      clientIp: z.string().optional(),
      offsiteBackup: z.object({ pointInTimeRecovery: z.boolean().nullable() }).optional(),
      dbPool: z.object({ max: count, inFlight: count, waiting: count }).optional(),
      aiConcurrency: z.object({ max: count, inUse: count }).optional(),
    })
    .meta({ id: 'Health', description: '`{ status }`; the other fields only with a correct `X-Internal-Key`' }),
);
const InternalKey = z.object({
  'X-Internal-Key': z.string().optional().meta({ description: 'INTERNAL_SERVICE_KEY: adds the operators’ details' }),
});

async function health({ event, deps, clientIp }: RouteInput<undefined, unknown>) {
  if (presentsInternalKey(deps, event)) {
    const details = await healthDetails(deps, { clientIp });
    return answer(details.status === 'ok', details);
  }
  const { ok } = await checkHealth(deps);
  return answer(ok, { status: ok ? 'ok' : 'error' });
}

export const { handler, createHandler, routes } = defineGroup(healthRoutes, {
  'GET /api/health': route.public({
    headers: InternalKey,
    responses: {
      200: json(Health, 'The table answers and every migration is applied'),
      503: json(Health, 'The table cannot be read or migrations are missing (`status: error`)', {
        headers: { 'Retry-After': { schema: z.string(), description: 'Seconds', required: false } },
      }),
    },
    run: health,
  }),
});
