/** Building blocks of the screens. */
import { DataTable, type DataTableColumnProps, List, type ListProps } from 'react-admin';
import { DEFAULT_LIMIT } from '../contract';

/**
 * A table column. The API sorts its lists itself (newest first) and takes no sort parameter, so no column
 * offers sorting.
 */
export const Col = (props: DataTableColumnProps) => <DataTable.Col disableSort {...props} />;

/** A list page: the API's default page size, no CSV export (staff data stays in the panel). */
export const AdminList = (props: ListProps) => <List perPage={DEFAULT_LIMIT} exporter={false} {...props} />;
