/** Subscription plans: the list, filtered by whether a plan is on sale. */
import { DataTable, NullableBooleanInput, TextField } from 'react-admin';
import { Money } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';
import { bool, choice, columns, id, money, num } from '../../common/specs';

const planFilters = [...optionalFilters('plans', ['q']), <NullableBooleanInput key="onSale" source="onSale" alwaysOn />];

export const PlanList = () => (
  <AdminList
    filters={planFilters}
    mobile={{ primaryText: <TextField source="title" />, secondaryText: <Money source="price" />, rowClick: 'show' }}
  >
    <DataTable rowClick="show" bulkActionButtons={false}>
      {columns(
        id('id'),
        'title',
        money('price'),
        num('durationDays'),
        num('aiDailyQuota'),
        bool('onSale'),
        bool('popular'),
        <Col source="marketplaceSku" render={(r: any) => <bdi>{r.marketplaceSku}</bdi>} />,
        choice('marketplaceProductType', 'productType'),
      )}
    </DataTable>
  </AdminList>
);
