/** Endpoint group `health`: `GET /api/health` (spec Endpoints). */
import { checkHealth, healthDetails } from '@mathisland/core/health';
import { defineGroup } from '../lib/group';
import { HttpResponse, presentsInternalKey } from '../lib/http';
import { type RouteInput, route } from '../lib/route';

async function health({ event, deps, clientIp }: RouteInput<undefined, unknown>) {
  if (presentsInternalKey(deps, event)) {
    const details = await healthDetails(deps, { clientIp });
    return new HttpResponse(details.status === 'ok' ? 200 : 503, details);
  }
  const { ok } = await checkHealth(deps);
  return new HttpResponse(ok ? 200 : 503, { status: ok ? 'ok' : 'error' });
}

export const { handler, createHandler, routes } = defineGroup('health', {
  'GET /api/health': route.public({ run: health }),
});
