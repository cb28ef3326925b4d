/** Building blocks of the screens. */
import { Tooltip } from '@mui/material';
import {
  DataTable,
  type DataTableColumnProps,
  DeleteButton,
  List,
  type ListProps,
  SaveButton,
  Toolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { DEFAULT_LIMIT } from '../contract';

/**
 * A table column. The API sorts its lists itself (newest first) and takes no sort parameter, so no column
 * offers sorting.
 */
export const Col = (props: DataTableColumnProps) => <DataTable.Col disableSort {...props} />;

/** A list page: the API's default page size, no CSV export (staff data stays in the panel). */
export const AdminList = (props: ListProps) => <List perPage={DEFAULT_LIMIT} exporter={false} {...props} />;

/** A form toolbar with Save only (the resource cannot be deleted, or deleting is on its show page). */
export const SaveOnlyToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/**
 * Delete (after a confirmation), unless `kept(record)`: then a note says why not (`reason`, a translation key), as
 * the API would refuse it (a plan with orders, a code that was used).
 */
export function DeleteUnless({ kept, reason }: { kept: (record: any) => boolean; reason: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  if (kept(record)) {
    return (
      <Tooltip title={translate(reason)}>
        <span data-testid="delete-kept" style={{ fontSize: '0.8125rem', opacity: 0.7, padding: '4px 5px' }}>
          {translate('app.not_deletable')}
        </span>
      </Tooltip>
    );
  }
  return <DeleteButton mutationMode="pessimistic" />;
}
