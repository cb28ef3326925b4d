/** Discount codes: the list, filtered by active and advertised. */
import { BooleanField, DataTable, NullableBooleanInput } from 'react-admin';
import { DateTime, Num } from '../../common/fields';
import { AdminList, Col } from '../../common/list';

const codeFilters = [
  <NullableBooleanInput key="active" source="active" alwaysOn />,
  <NullableBooleanInput key="advertised" source="advertised" alwaysOn />,
];

export const DiscountCodeList = () => (
  <AdminList filters={codeFilters}>
    <DataTable rowClick="show" bulkActionButtons={false}>
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
