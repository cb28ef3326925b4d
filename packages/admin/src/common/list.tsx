/**
 * The lists of every resource: their table columns, the pagination bar in the panel's digits, and the list page,
 * which on a phone (narrower than MUI's `sm`, 600 px) shows react-admin's compact SimpleList instead of the table.
 */
import { PaginationItem, type Theme, useMediaQuery } from '@mui/material';
import type { ReactNode } from 'react';
import {
  CreateButton,
  DataTable,
  type DataTableColumnProps,
  FilterButton,
  List,
  type ListProps,
  Pagination,
  PaginationActions,
  type PaginationActionsProps,
  SimpleList,
  type SimpleListProps,
  TopToolbar,
  useFilterContext,
  useListContext,
  useLocaleState,
  useResourceContext,
  useResourceDefinition,
} from 'react-admin';
import { DEFAULT_LIMIT, sortableFields } from '../api/contract';
import { formatNumber } from '../i18n';
import { CsvExportButton } from './ExportButton';

/**
 * A table column, sortable when the list's route sorts by its field (the API description's `sort` choices); any other
 * column keeps the API's own order (newest first).
 */
export function Col(props: DataTableColumnProps) {
  const resource = useResourceContext(props);
  const sortable = props.source !== undefined && resource !== undefined && sortableFields(resource).includes(props.source);
  return <DataTable.Col disableSort={!sortable} {...props} />;
}

/** The page buttons, numbered in the panel's digits. */
function PageButtons(props: PaginationActionsProps) {
  const [locale] = useLocaleState();
  return (
    <PaginationActions
      {...props}
      renderItem={(item) => (
        <PaginationItem {...item} page={typeof item.page === 'number' ? formatNumber(item.page, locale, false) : item.page} />
      )}
    />
  );
}

/** react-admin's pagination bar with every number in the panel's digits (its range text: i18n's interpolation). */
export function AdminPagination() {
  const [locale] = useLocaleState();
  const { total } = useListContext();
  const options = [10, 25, 50, 100].map((value) => ({ value, label: formatNumber(value, locale) }));
  // Without a total the bar has only previous/next (react-admin's partial pagination), nothing to number.
  return <Pagination rowsPerPageOptions={options} actions={total == null ? undefined : PageButtons} />;
}

/** The list's toolbar: filters (with saved ones), create where the staff member may, and the CSV export. */
function AdminListActions() {
  const filters = useFilterContext();
  const { hasCreate } = useResourceDefinition();
  return (
    <TopToolbar>
      {filters && filters.length > 0 ? <FilterButton /> : null}
      {hasCreate ? <CreateButton /> : null}
      <CsvExportButton />
    </TopToolbar>
  );
}

/** Whether the screen is a phone's (narrower than 600 px). */
export const useSmallScreen = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/**
 * A list page: the API's default page size, the pagination bar in the panel's digits, the CSV export of the API (not
 * react-admin's, which stops at 1,000 rows). `mobile`: the SimpleList of a phone (its primary, secondary and tertiary texts, its row click);
 * without it a phone gets the table too.
 */
export function AdminList({ mobile, children, ...props }: ListProps & { mobile?: SimpleListProps; children: ReactNode }) {
  const small = useSmallScreen();
  return (
    <List perPage={DEFAULT_LIMIT} exporter={false} pagination={<AdminPagination />} actions={<AdminListActions />} {...props}>
      {small && mobile ? <SimpleList {...mobile} /> : children}
    </List>
  );
}
