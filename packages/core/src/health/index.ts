/** Health of the service (spec Endpoints `GET /api/health`): the short status and the operators' details. */
export { checkHealth, healthDetails } from './check';

/** Sort-key prefixes of health items in a learner's partition: none (health stores nothing). */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [];
