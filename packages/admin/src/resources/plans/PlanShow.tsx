/**
 * A plan's page. Deleting a plan that has orders is refused (409 `plan_has_orders`): the page says so instead of
 * offering Delete; take it off sale instead.
 */
import { BooleanField, EditButton, ListButton, Show, TextArrayField, TextField, TopToolbar } from 'react-admin';
import { DeleteUnless } from '../../common/actions';
import { ChoiceField, IdField, Money, Num } from '../../common/fields';
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
      <IdField source="id" />
      <TextField source="title" />
      <Money source="price" />
      <Num source="durationDays" />
      <Num source="aiDailyQuota" />
      <TextArrayField source="features" />
      <TextField source="badge" emptyText="—" />
      <BooleanField source="popular" />
      <BooleanField source="onSale" />
      <TextField source="marketplaceSku" emptyText="—" />
      <ChoiceField source="marketplaceProductType" group="productType" />
      <BooleanField source="hasOrders" />
    </DetailsAndHistory>
  </Show>
);
