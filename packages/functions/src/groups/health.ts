/**
 * Endpoint group `health`: `GET /api/health` (spec Endpoints). 200 when healthy; 503 on a real failure (the table
 * does not answer, migrations missing) with `Retry-After` like every 503 (DESIGN §11).
 */
import { checkHealth, healthDetails } from '@mathisland/core/health';
import { defineGroup } from '../lib/group';
import { HttpResponse, presentsInternalKey } from '../lib/http';
import { type RouteInput, route } from '../lib/route';

/** Seconds a caller (a load balancer, a deploy check) should wait before asking again after a 503. */
export const HEALTH_RETRY_AFTER_SECONDS = 10;

const answer = (ok: boolean, body: unknown) =>
  ok ? new HttpResponse(200, body) : new HttpResponse(503, body, { 'retry-after': String(HEALTH_RETRY_AFTER_SECONDS) });

async function health({ event, deps, clientIp }: RouteInput<undefined, unknown>) {
  if (presentsInternalKey(deps, event)) {
    const details = await healthDetails(deps, { clientIp });
    return answer(details.status === 'ok', details);
  }
  const { ok } = await checkHealth(deps);
  return answer(ok, { status: ok ? 'ok' : 'error' });
}

export const { handler, createHandler, routes } = defineGroup('health', {
  'GET /api/health': route.public({ run: health }),
});
