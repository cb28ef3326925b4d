/** Hearts (spec "Progress"; issue 3 §1): the stored pair, the derived count and the refill clock. */
export { afterLosingOne, type HeartsNow, heartsAt, type StoredHearts } from './hearts';
