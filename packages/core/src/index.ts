/**
 * @mathisland/core: the domain and its persistence. No HTTP and no Lambda types here; handlers in
 * `packages/functions` translate requests into calls of these modules (DESIGN §2).
 */
export { type Deps, buildDeps } from './deps';
export { DomainError, commonErrors } from './errors';
export { type Settings, SettingsError, loadSettings } from './config/settings';
export { type Clock, ManualClock, systemClock } from './clock';
export { logger } from './log';
