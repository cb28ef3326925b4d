/**
 * Migration `0003-admin-indexes`, the tutor's part: gsi2 `AIFEEDBACK` (message.entity.ts) on answers rated
 * before it, learner by learner (one Query of each learner's messages; no Scan); idempotent.
 */
import type { Db } from '../db/client';
import { updateItem } from '../db/items';
import { feedbackIndex, messageKey, ratedMessagesOf } from './message.entity';

/** Adds the feedback index to the rated answers of the learners `userIds`. */
export async function backfillFeedbackIndex(db: Db, userIds: number[]): Promise<void> {
  for (const userId of userIds) {
    for (const message of await ratedMessagesOf(db, userId)) {
      const index = feedbackIndex(message);
      await updateItem(db, messageKey(userId, message.id), 'SET gsi2pk = :pk, gsi2sk = :sk', {
        condition: 'attribute_exists(pk)',
        values: { ':pk': index.gsi2pk, ':sk': index.gsi2sk },
      });
    }
  }
}
