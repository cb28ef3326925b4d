/** Discount codes: the list, filtered by active and advertised. */
import { DataTable, NullableBooleanInput, TextField } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { Num } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList } from '../../common/list';
import { bool, columns, num, time } from '../../common/specs';

const codeFilters = [
  ...optionalFilters('discount-codes', ['q']),
  <NullableBooleanInput key="active" source="active" alwaysOn />,
  <NullableBooleanInput key="advertised" source="advertised" alwaysOn />,
];

export function DiscountCodeList() {
  const bulkActions = useBulkActions('discount-codes');
  return (
    <AdminList
      filters={codeFilters}
      mobile={{
        primaryText: <TextField source="code" />,
        secondaryText: <TextField source="title" />,
        tertiaryText: <Num source="percent" />,
        rowClick: 'show',
      }}
    >
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        {columns(
          'code',
          'title',
          num('percent'),
          num('uses'),
          num('maxUses'),
          time('validFrom'),
          time('validUntil'),
          bool('advertised'),
          bool('active'),
        )}
      </DataTable>
    </AdminList>
  );
}
