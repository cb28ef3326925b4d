/**
 * Data migrations: ordered, idempotent steps that bring the table's data to what this code expects (seed
 * content, plans, later data fixes). Applied by `npm start`, by tests, and in AWS by the Storage stack's
 * deploy-time Script. Each applied id is recorded as an item; health reports the unapplied ones.
 */
export { applyMigrations, unappliedMigrations } from './apply';
export { type MigrationId, type MigrationInfo, migrations } from './ids';
export { migrationKey } from './migration.entity';
