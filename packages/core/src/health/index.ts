/** Health of the service (spec Endpoints `GET /api/health`): the short status and the operators' details. */
export { checkHealth, healthDetails } from './check';
