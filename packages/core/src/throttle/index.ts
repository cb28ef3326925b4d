/** Per-scope rate limits shared by every Lambda instance (spec Limits); used by the edge's throttle middleware. */
export { hit } from './hit';
export { type ThrottleTicket, throttleTicket, transactCounting } from './ticket';
