/**
 * Discount codes (add and change: superuser only; delete: `delete_discountcode`) and offers (the advertised
 * codes; `change_offer` edits their title and whether they are advertised).
 */
import {
  BooleanField,
  BooleanInput,
  Create,
  DataTable,
  DateTimeInput,
  DeleteButton,
  Edit,
  EditButton,
  ListButton,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  ReferenceArrayInput,
  SelectArrayInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
} from 'react-admin';
import { DateTime } from '../fields';
import { validate, validateWindow } from '../validation';
import { AdminList, Col } from './common';

const codeFilters = [
  <NullableBooleanInput key="active" source="active" alwaysOn />,
  <NullableBooleanInput key="advertised" source="advertised" alwaysOn />,
];

export const DiscountCodeList = () => (
  <AdminList filters={codeFilters}>
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="code" />
      <Col source="title" />
      <Col source="percent" field={NumberField} />
      <Col source="uses" field={NumberField} />
      <Col source="maxUses" field={NumberField} />
      <Col source="validFrom" field={DateTime} />
      <Col source="validUntil" field={DateTime} />
      <Col source="advertised" field={BooleanField} />
      <Col source="active" field={BooleanField} />
    </DataTable>
  </AdminList>
);

const CodeShowActions = () => (
  <TopToolbar>
    <ListButton />
    <EditButton />
    <DeleteButton mutationMode="pessimistic" />
  </TopToolbar>
);

export const DiscountCodeShow = () => (
  <Show actions={<CodeShowActions />}>
    <SimpleShowLayout>
      <TextField source="code" />
      <TextField source="title" />
      <NumberField source="percent" />
      <DateTime source="validFrom" emptyText="—" />
      <DateTime source="validUntil" emptyText="—" />
      <NumberField source="maxUses" emptyText="∞" />
      <NumberField source="perUserLimit" />
      <TextField source="planIds" emptyText="—" />
      <BooleanField source="advertised" />
      <BooleanField source="active" />
      <NumberField source="uses" />
    </SimpleShowLayout>
  </Show>
);

function CodeInputs() {
  return (
    <>
      <TextInput source="title" validate={validate.title} fullWidth />
      <NumberInput source="percent" validate={validate.percent} min={1} max={100} step={1} />
      <DateTimeInput source="validFrom" />
      <DateTimeInput source="validUntil" />
      <NumberInput source="maxUses" validate={validate.maxUses} min={1} step={1} />
      <NumberInput source="perUserLimit" validate={validate.perUserLimit} min={1} step={1} />
      <ReferenceArrayInput source="planIds" reference="plans">
        <SelectArrayInput optionText="title" />
      </ReferenceArrayInput>
      <BooleanInput source="advertised" />
      <BooleanInput source="active" />
    </>
  );
}

export const DiscountCodeCreate = () => (
  <Create
    redirect="show"
    transform={(data: any) => ({
      ...data,
      code: String(data.code ?? '')
        .trim()
        .toUpperCase(),
    })}
  >
    <SimpleForm validate={validateWindow} defaultValues={{ perUserLimit: 1, advertised: false, active: true }}>
      <TextInput source="code" validate={validate.discountCode} sx={{ direction: 'ltr' }} />
      <CodeInputs />
    </SimpleForm>
  </Create>
);

export const DiscountCodeEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm validate={validateWindow}>
      <TextField source="code" />
      <CodeInputs />
    </SimpleForm>
  </Edit>
);

export const OfferList = () => (
  <AdminList>
    <DataTable rowClick="edit" bulkActionButtons={false}>
      <Col source="code" />
      <Col source="title" />
      <Col source="percent" field={NumberField} />
      <Col source="validUntil" field={DateTime} />
    </DataTable>
  </AdminList>
);

export const OfferEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <SimpleForm>
      <TextField source="code" />
      <TextInput source="title" validate={validate.title} fullWidth />
      <BooleanInput source="advertised" />
    </SimpleForm>
  </Edit>
);
