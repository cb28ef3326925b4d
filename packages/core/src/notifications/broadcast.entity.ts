/**
 * Staff messages to every learner (DESIGN §9 notifications "send to all"): ONE item per message, which each
 * learner's list merges in (list.ts), so sending to all costs one write whatever the number of learners.
 *
 * | item      | pk        | sk                 | gsi1                      | TTL                         |
 * |-----------|-----------|--------------------|---------------------------|-----------------------------|
 * | broadcast | BROADCAST | NOTIF#<id 12>      | SENTNOTIFS / <id 12>      | `expiresAt`, as notifications |
 *
 * Its id comes from the `notification` counter, so it sorts among a learner's own notifications. A learner
 * sees the broadcasts sent since they joined. Marking one read writes a read copy with the same id into the
 * learner's partition (notification.entity.ts), which then stands for it in that learner's list.
 */
import type { Db } from '../db/client';
import { getItem, type Page, queryAll, queryPage } from '../db/items';
import { type Key, pad } from '../db/keys';
import { put, type TxItem } from '../db/transact';
import { NOTIFICATION_PREFIX, NotificationItem, type StoredNotification, sentIndex } from './notification.entity';

const BROADCAST_PARTITION = 'BROADCAST';
const broadcastKey = (id: number): Key => ({ pk: BROADCAST_PARTITION, sk: `${NOTIFICATION_PREFIX}${pad(id, 12)}` });

/** Stores broadcast `item` (condition: a new id). */
export const broadcastItem = (db: Db, item: StoredNotification): TxItem =>
  put(db, { ...broadcastKey(item.id), ...sentIndex(item.id), ...item }, { condition: 'attribute_not_exists(pk)' });

/** Broadcast `id`, or undefined. */
export const readBroadcast = (db: Db, id: number): Promise<StoredNotification | undefined> =>
  getItem(db, broadcastKey(id), NotificationItem);

/** Up to `limit` broadcasts newest first, with ids below `beforeId` when given (eventually consistent is enough: staff wrote them). */
export const broadcastPage = (db: Db, limit: number, beforeId?: number): Promise<Page<StoredNotification>> =>
  queryPage(
    db,
    {
      partition: BROADCAST_PARTITION,
      sortKey:
        beforeId === undefined ? { beginsWith: NOTIFICATION_PREFIX } : { between: [NOTIFICATION_PREFIX, broadcastKey(beforeId - 1).sk] },
      descending: true,
      limit,
    },
    NotificationItem,
  );

/** Every broadcast with an id above `afterId` (few: staff messages of the last 90 days at most). */
export const broadcastsAfter = (db: Db, afterId: number): Promise<StoredNotification[]> =>
  queryAll(db, { partition: BROADCAST_PARTITION, sortKey: { gt: broadcastKey(afterId).sk } }, NotificationItem);

/** The newest broadcast, or undefined. */
export const newestBroadcast = async (db: Db): Promise<StoredNotification | undefined> => (await broadcastPage(db, 1)).items[0];
