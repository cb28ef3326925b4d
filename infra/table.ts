/**
 * The one DynamoDB table (single-table design, DESIGN §5): key names, GSIs and the TTL attribute.
 *
 * Read by `stacks/Storage.ts` (to deploy it), by `scripts/bootstrap-table.ts` and the local runtime (to
 * create it in DynamoDB Local) and by tests. Item keys themselves are built in exactly one module:
 * `packages/core/src/db/keys.ts`.
 */
export const table = {
  /** Partition key and sort key of the base table; both strings. */
  partitionKey: 'pk',
  sortKey: 'sk',
  /** Global secondary indexes; every attribute is a string, projection ALL. */
  globalIndexes: {
    gsi1: { partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    gsi2: { partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  },
  /** TTL attribute, epoch seconds. DynamoDB deletes an expired item within about 48 hours, so reads check it too. */
  ttlAttribute: 'expiresAt',
} as const;

export type GlobalIndexName = keyof typeof table.globalIndexes;
