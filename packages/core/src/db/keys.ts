/**
 * Conventions of the single table (DESIGN §5): every item has a string partition key `pk` and sort key `sk`;
 * GSIs `gsi1` (`gsi1pk`, `gsi1sk`) and `gsi2` (`gsi2pk`, `gsi2sk`); TTL attribute `expiresAt` (epoch seconds).
 *
 * Each entity builds its own keys in its entity module (`<domain>/<name>.entity.ts`, whose docstring has its
 * key layout); this module holds only what they share: the key type, fixed-width numbers (so ids sort as
 * strings) and the learner's partition, where the items of several domains live side by side under their own
 * sort-key prefixes (each domain's front lists its personal ones as `PERSONAL_ITEM_PREFIXES`).
 */
export interface Key {
  pk: string;
  sk: string;
}

/** `n` as a fixed-width decimal string, so numeric ids sort as strings in a sort key. */
export const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The partition of a learner's own items (user item, progress, notifications, tickets, ...): `USER#<userId>`. */
export const userPartition = (userId: number): string => `USER#${userId}`;
