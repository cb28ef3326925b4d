/** Subscription plans: the list, filtered by whether a plan is on sale. */
import { BooleanField, DataTable, NullableBooleanInput, TextField } from 'react-admin';
import { ChoiceField, IdField, Money, Num } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';

const planFilters = [...optionalFilters('plans', ['q']), <NullableBooleanInput key="onSale" source="onSale" alwaysOn />];

export const PlanList = () => (
  <AdminList
    filters={planFilters}
    mobile={{ primaryText: <TextField source="title" />, secondaryText: <Money source="price" />, rowClick: 'show' }}
  >
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="id" field={IdField} />
      <Col source="title" />
      <Col source="price" field={Money} />
      <Col source="durationDays" field={Num} />
      <Col source="aiDailyQuota" field={Num} />
      <Col source="onSale" field={BooleanField} />
      <Col source="popular" field={BooleanField} />
      <Col source="marketplaceSku" render={(r: any) => <bdi>{r.marketplaceSku}</bdi>} />
      <Col source="marketplaceProductType" field={(p: any) => <ChoiceField {...p} group="productType" />} />
    </DataTable>
  </AdminList>
);
