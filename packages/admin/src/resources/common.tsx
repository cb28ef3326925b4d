/** Building blocks of the screens. */
import { DataTable, type DataTableColumnProps } from 'react-admin';

/**
 * A table column. The API sorts its lists itself (newest first) and takes no sort parameter, so no column
 * offers sorting.
 */
export const Col = (props: DataTableColumnProps) => <DataTable.Col disableSort {...props} />;
