/**
 * The one DynamoDB table (single-table design, DESIGN §5): key names, GSIs and the TTL attribute.
 *
 * Read by `stacks/Storage.ts` (to deploy it), by the local runtime and `scripts/createsuperuser.ts` (which create
 * it in DynamoDB Local through `packages/core/src/db/bootstrap.ts`) and by tests. Item keys are built in the
 * entity modules of each domain (`packages/core/src/<domain>/*.entity.ts`).
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
