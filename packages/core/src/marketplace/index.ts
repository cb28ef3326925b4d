/**
 * The marketplace connection (spec "Marketplace credential", Authentication 8 and 9; DESIGN §8): which
 * credential authorizes calls to the marketplace (the static secret, else OAuth with the stored refresh token and a
 * per-worker access token), the authorization window staff open, and the one-time code exchange.
 *
 * The front: what subscriptions (verification and renewal), health, the marketplace endpoint group, the scripts
 * and the tests use. Purchases, verification and renewal themselves belong to subscriptions/.
 */

export { marketplaceAuth, withMarketplaceAuth } from './access';
export {
  type ConnectionStatus,
  type CredentialMode,
  completeAuthorization,
  connectionStatus,
  credentialMode,
  marketplaceConnected,
  openAuthorizeWindow,
} from './connection';
export { MARKETPLACE_RETRY_AFTER_SECONDS, marketplaceErrors } from './errors';
export { AccessTokenCache } from './tokenCache';
