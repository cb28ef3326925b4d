/**
 * @mathisland/core: the domain and its persistence. No HTTP and no Lambda types here; handlers in
 * `packages/functions` translate requests into calls of these modules (DESIGN §2).
 */

export { type Clock, ManualClock, systemClock } from './clock';
export { loadSettings, type Settings, SettingsError } from './config/settings';
export { callTimeout, remainingMs, withDeadline } from './deadline';
export type { Deps } from './deps';
export { commonErrors, DomainError } from './errors';
export { lazySchema, schemaDescription } from './lazySchema';
export { logger } from './log';
export { type Adapters, buildDeps } from './wiring';
