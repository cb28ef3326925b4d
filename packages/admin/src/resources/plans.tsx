/**
 * Subscription plans: list (filter on sale), show, create, edit, delete. The forms check what the API checks:
 * title required, price whole toman ≥ 0, duration whole days ≥ 1, a tutor quota, and the marketplace SKU's
 * shape; a SKU another plan holds is refused by the API (409 `sku_taken`) and shown under the SKU input.
 * Deleting a plan that has orders is refused (409): take it off sale instead.
 */
import {
  BooleanField,
  BooleanInput,
  Create,
  DataTable,
  DeleteButton,
  Edit,
  EditButton,
  ListButton,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  SaveButton,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextArrayField,
  TextArrayInput,
  TextField,
  TextInput,
  Toolbar,
  TopToolbar,
} from 'react-admin';
import { Money } from '../fields';
import { validate } from '../validation';
import { AdminList, Col } from './common';

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
      <Col source="marketplaceSku" />
    </DataTable>
  </AdminList>
);

const PlanShowActions = () => (
  <TopToolbar>
    <ListButton />
    <EditButton />
    <DeleteButton mutationMode="pessimistic" />
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
      <TextArrayInput source="features" fullWidth />
      <TextInput source="badge" validate={validate.badge} />
      <BooleanInput source="popular" />
      <BooleanInput source="onSale" />
      <TextInput source="marketplaceSku" validate={validate.sku} sx={{ direction: 'ltr' }} />
    </>
  );
}

/** Save only (deleting is on the show page, where a refusal reads next to the plan). */
const SaveOnly = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

export const PlanEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm toolbar={<SaveOnly />}>
      <PlanInputs />
    </SimpleForm>
  </Edit>
);

export const PlanCreate = () => (
  <Create redirect="show">
    <SimpleForm defaultValues={{ features: [], popular: false, onSale: false, aiDailyQuota: 4 }}>
      <PlanInputs />
    </SimpleForm>
  </Create>
);
