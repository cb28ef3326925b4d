/**
 * The storage platform: the one table's client and the helpers every entity module builds on. Domains import
 * these modules directly (`../db/items`, `../db/transact`, `../db/conditions`); this front is for the edge
 * (the local runtime, the migration job, scripts), which may not reach into core's folders.
 */
export { putAll } from './batch';
export { ensureTable } from './bootstrap';
export { createDb, type Db, defaultPool, Pool, type PoolOptions, RequestCounter } from './client';
