/**
 * What a rate limit is to the domain (spec Limits): a fixed window of `windowSeconds` holding at most `limit` hits.
 * The limits of each route's scope are values of the route manifest (`infra/routes.ts` throttleScopes, which add
 * what the edge counts them by: the viewer's address or the signed-in user); the domain counts hits under a rule and
 * never reads the manifest.
 */
export interface ThrottleRule {
  /** Hits allowed per window. */
  limit: number;
  /** Window length, seconds. */
  windowSeconds: number;
}
