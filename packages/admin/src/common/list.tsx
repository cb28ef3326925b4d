/**
 * The lists of every resource: their table columns, the pagination bar in the panel's digits, and the list page,
 * which on a phone (narrower than MUI's `sm`, 600 px) shows react-admin's compact SimpleList instead of the table.
 */
import { PaginationItem, type Theme, useMediaQuery } from '@mui/material';
import type { ReactNode } from 'react';
import {
  DataTable,
  type DataTableColumnProps,
  List,
  type ListProps,
  Pagination,
  PaginationActions,
  type PaginationActionsProps,
  SimpleList,
  type SimpleListProps,
  useListContext,
  useLocaleState,
  useResourceContext,
} from 'react-admin';
import { DEFAULT_LIMIT, sortableFields } from '../api/contract';
import { formatNumber } from '../i18n';

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

/** Whether the screen is a phone's (narrower than 600 px). */
export const useSmallScreen = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('sm'));

/**
 * A list page: the API's default page size, the pagination bar in the panel's digits, no CSV export (staff data stays
 * in the panel). `mobile`: the SimpleList of a phone (its primary, secondary and tertiary texts, its row click);
 * without it a phone gets the table too.
 */
export function AdminList({ mobile, children, ...props }: ListProps & { mobile?: SimpleListProps; children: ReactNode }) {
  const small = useSmallScreen();
  return (
    <List perPage={DEFAULT_LIMIT} exporter={false} pagination={<AdminPagination />} {...props}>
      {small && mobile ? <SimpleList {...mobile} /> : children}
    </List>
  );
}
