/** Discount codes: the list, filtered by active and advertised. */
import { BooleanField, DataTable, NullableBooleanInput, TextField } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { DateTime, Num } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';

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
        <Col source="code" />
        <Col source="title" />
        <Col source="percent" field={Num} />
        <Col source="uses" field={Num} />
        <Col source="maxUses" field={Num} />
        <Col source="validFrom" field={DateTime} />
        <Col source="validUntil" field={DateTime} />
        <Col source="advertised" field={BooleanField} />
        <Col source="active" field={BooleanField} />
      </DataTable>
    </AdminList>
  );
}
