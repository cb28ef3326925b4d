/** Endpoint group `health`: `GET /api/health` (spec Endpoints). */
import { safeEqual } from '@mathisland/core/auth/index';
import { checkHealth, healthDetails } from '@mathisland/core/health/index';
import { defineGroup, route } from '../lib/group';
import { HttpResponse } from '../lib/types';

export const { handler, routes } = defineGroup('health', {
  'GET /api/health': route({
    async run({ event, deps, clientIp }) {
      const key = deps.settings.internalServiceKey;
      const given = event.headers?.['x-internal-key'];
      if (key && given && safeEqual(given, key)) {
        const details = await healthDetails(deps, { clientIp });
        return new HttpResponse(details.status === 'ok' ? 200 : 503, details);
      }
      const { ok } = await checkHealth(deps);
      return new HttpResponse(ok ? 200 : 503, { status: ok ? 'ok' : 'error' });
    },
  }),
});
