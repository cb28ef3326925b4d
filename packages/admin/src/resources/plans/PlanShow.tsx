/**
 * A plan's page. Deleting a plan that has orders is refused (409 `plan_has_orders`): the page says so instead of
 * offering Delete; take it off sale instead.
 */
import { EditButton, ListButton, Show, TextArrayField, TopToolbar } from 'react-admin';
import { DeleteUnless } from '../../common/actions';
import { bool, choice, fields, id, money, num, text } from '../../common/specs';
import { DetailsAndHistory } from '../history/RecordHistory';

const PlanShowActions = () => (
  <TopToolbar>
    <ListButton />
    <EditButton />
    <DeleteUnless kept={(r) => r.hasOrders} reason="app.errors.plan_has_orders" />
  </TopToolbar>
);

export const PlanShow = () => (
  <Show actions={<PlanShowActions />}>
    <DetailsAndHistory model="plan">
      {fields(id('id'), text('title'), money('price'), num('durationDays'), num('aiDailyQuota'))}
      <TextArrayField source="features" />
      {fields(
        text('badge', { emptyText: '—' }),
        bool('popular'),
        bool('onSale'),
        text('marketplaceSku', { emptyText: '—' }),
        choice('marketplaceProductType', 'productType'),
        bool('hasOrders'),
      )}
    </DetailsAndHistory>
  </Show>
);
