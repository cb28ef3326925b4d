/**
 * The staff history (DESIGN §9, Django admin's LogEntry): what every admin write, staff sign-in, sign-out and export
 * did, by whom and when, with the before and after of each changed field (never a secret). Other domains put
 * {@link historyItems} into the transaction of the change they record.
 */

export { type ChangeOptions, fieldChanges } from './changes';
export {
  type Changes,
  type FieldChange,
  HISTORY_ACTIONS,
  HISTORY_MODELS,
  type HistoryAction,
  type HistoryEntry,
  type HistoryFilter,
  type HistoryModel,
  historyItems,
  type NewHistoryEntry,
  recordIdsOf,
} from './entry.entity';
export { type HistoryView, historyView, listHistory, recordHistory } from './history';
