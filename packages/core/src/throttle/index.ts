/** Per-scope rate limits shared by every Lambda instance (spec Limits); used by the edge's throttle middleware. */
export { hit } from './hit';

/** Sort-key prefixes of throttle items in a learner's partition: none (windows have their own partitions). */
export const PERSONAL_ITEM_PREFIXES: readonly string[] = [];
