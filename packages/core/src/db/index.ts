/**
 * The storage platform: the one table's client and the helpers every entity module builds on. Domains import
 * these modules directly (`../db/items`, `../db/transact`, `../db/conditions`); this front is for the edge
 * (the local runtime, the migration job, scripts and tests that set up a state).
 */
export { putAll } from './batch';
export { ensureTable } from './bootstrap';
export { createDb, type Db, defaultPool, Pool, type PoolOptions, RequestCounter } from './client';
export { deleteItem, getItem, ItemKey, putItem, queryAll, updateItem } from './items';
export type { Key } from './keys';
export { check, put, remove, transact, update } from './transact';
