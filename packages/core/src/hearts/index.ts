/**
 * Hearts (spec "Progress"; issue 3 §1): pure rules on the stored pair of the user item (`hearts`,
 * `heartsUpdatedAt`): the derived count and the refill clock. Answering (progress/) writes the pair.
 */
export { afterLosingOne, type HeartsNow, heartsAt, type StoredHearts } from './hearts';
