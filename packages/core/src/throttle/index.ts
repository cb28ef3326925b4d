/** Per-scope rate limits shared by every Lambda instance (spec Limits); used by the edge's throttle middleware. */
export { hit } from './hit';
export { hitOnItem, type ItemGuard, SLOTS } from './onItem';
export type { ThrottleRule } from './rule';
export { type CountingDeps, type ThrottleTicket, throttleTicket, transactCounting, uncounted } from './ticket';
