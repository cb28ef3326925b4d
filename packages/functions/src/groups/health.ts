/** Endpoint group `health`: `GET /api/health` (spec Endpoints). */
import { checkHealth, healthDetails } from '@mathisland/core/health/index';
import { defineGroup, presentsInternalKey, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

export const { handler, routes } = defineGroup('health', {
  'GET /api/health': route({
    async run({ event, deps, clientIp }) {
      if (presentsInternalKey(deps, event)) {
        const details = await healthDetails(deps, { clientIp });
        return new HttpResponse(details.status === 'ok' ? 200 : 503, details);
      }
      const { ok } = await checkHealth(deps);
      return new HttpResponse(ok ? 200 : 503, { status: ok ? 'ok' : 'error' });
    },
  }),
});
