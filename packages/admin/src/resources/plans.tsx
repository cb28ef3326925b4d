/**
 * Subscription plans: list (filter on sale), show, create, edit, delete. The forms check what the API checks
 * (validation.ts): title, price in whole toman, duration, tutor quota, features, badge, and the marketplace SKU's
 * shape; a SKU another plan holds is refused by the API (409 `sku_taken`) and shown under the SKU input. The
 * marketplace product type says how the marketplace sells the SKU (`subscription` or `inapp`; orders keep the type
 * they were bought with). Deleting a plan that has orders is refused (409 `plan_has_orders`): take it off sale
 * instead.
 */
import {
  BooleanField,
  BooleanInput,
  Create,
  DataTable,
  Edit,
  EditButton,
  ListButton,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextArrayField,
  TextArrayInput,
  TextField,
  TextInput,
  TopToolbar,
} from 'react-admin';
import { MARKETPLACE_PRODUCT_TYPES } from '../contract';
import { ChoiceField, ChoiceInput, Money } from '../fields';
import { validate } from '../validation';
import { AdminList, Col, DeleteUnless, SaveOnlyToolbar } from './common';

const planFilters = [<NullableBooleanInput key="onSale" source="onSale" alwaysOn />];

export const PlanList = () => (
  <AdminList filters={planFilters}>
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="id" />
      <Col source="title" />
      <Col source="price" field={Money} />
      <Col source="durationDays" field={NumberField} />
      <Col source="aiDailyQuota" field={NumberField} />
      <Col source="onSale" field={BooleanField} />
      <Col source="popular" field={BooleanField} />
      <Col source="marketplaceSku" render={(r: any) => <bdi>{r.marketplaceSku}</bdi>} />
      <Col source="marketplaceProductType" field={(p: any) => <ChoiceField {...p} group="productType" ids={MARKETPLACE_PRODUCT_TYPES} />} />
    </DataTable>
  </AdminList>
);

const PlanShowActions = () => (
  <TopToolbar>
    <ListButton />
    <EditButton />
    <DeleteUnless kept={(r) => r.hasOrders} reason="app.errors.plan_has_orders" />
  </TopToolbar>
);

export const PlanShow = () => (
  <Show actions={<PlanShowActions />}>
    <SimpleShowLayout>
      <NumberField source="id" />
      <TextField source="title" />
      <Money source="price" />
      <NumberField source="durationDays" />
      <NumberField source="aiDailyQuota" />
      <TextArrayField source="features" />
      <TextField source="badge" emptyText="—" />
      <BooleanField source="popular" />
      <BooleanField source="onSale" />
      <TextField source="marketplaceSku" emptyText="—" />
      <ChoiceField source="marketplaceProductType" group="productType" ids={MARKETPLACE_PRODUCT_TYPES} />
      <BooleanField source="hasOrders" />
    </SimpleShowLayout>
  </Show>
);

function PlanInputs() {
  return (
    <>
      <TextInput source="title" validate={validate.title} fullWidth />
      <NumberInput source="price" validate={validate.price} step={1000} min={0} />
      <NumberInput source="durationDays" validate={validate.durationDays} step={1} min={1} />
      <NumberInput source="aiDailyQuota" validate={validate.aiDailyQuota} step={1} min={0} />
      <TextArrayInput source="features" validate={validate.features} fullWidth />
      <TextInput source="badge" validate={validate.badge} />
      <BooleanInput source="popular" />
      <BooleanInput source="onSale" />
      <TextInput
        source="marketplaceSku"
        validate={validate.sku}
        slotProps={{ htmlInput: { dir: 'ltr' } }}
        helperText="app.plans.sku_hint"
      />
      <ChoiceInput
        source="marketplaceProductType"
        group="productType"
        ids={MARKETPLACE_PRODUCT_TYPES}
        helperText="app.plans.product_type_hint"
      />
    </>
  );
}

export const PlanEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm toolbar={<SaveOnlyToolbar />}>
      <PlanInputs />
    </SimpleForm>
  </Edit>
);

export const PlanCreate = () => (
  <Create redirect="show">
    <SimpleForm defaultValues={{ features: [], popular: false, onSale: false, aiDailyQuota: 4, marketplaceProductType: 'subscription' }}>
      <PlanInputs />
    </SimpleForm>
  </Create>
);
