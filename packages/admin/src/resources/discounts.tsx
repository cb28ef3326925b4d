/**
 * Discount codes (add and change: superuser only; delete: `delete_discountcode`, refused with 409
 * `discount_code_used` once a code was used: deactivate it instead) and offers (the advertised codes;
 * `change_offer` edits their title and whether they are advertised). A code's window is picked in the browser's
 * clock (Tehran for the staff) and shown under the input in the Jalali calendar; an empty bound is no limit. An
 * empty plan list means every plan. A code another one already has is refused (409 `code_taken`, under the input).
 */
import CampaignIcon from '@mui/icons-material/Campaign';
import {
  BooleanField,
  BooleanInput,
  Button,
  ChipField,
  Create,
  DataTable,
  DateTimeInput,
  Edit,
  EditButton,
  FormDataConsumer,
  Labeled,
  ListButton,
  NullableBooleanInput,
  NumberField,
  NumberInput,
  ReferenceArrayField,
  ReferenceArrayInput,
  SelectArrayInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  SingleFieldList,
  TextField,
  TextInput,
  TopToolbar,
  useCanAccess,
  useLocaleState,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { DateTime, formatTime } from '../fields';
import { validate, validateWindow } from '../validation';
import { AdminList, Col, DeleteUnless, SaveOnlyToolbar } from './common';

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

/**
 * Advertise a code that is not yet (`PATCH /api/admin/offers/{code}` `{ advertised: true }`, `change_offer`): so a
 * staff member who may change offers but not codes can make any code an offer.
 */
function AdvertiseButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'offers', action: 'edit' });
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  if (!record || record.advertised || !canAccess) return null;
  const advertise = () =>
    update(
      'offers',
      { id: record.id, data: { advertised: true }, previousData: { id: record.id, advertised: false } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.discounts.advertised', { type: 'info' });
          refresh();
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  return (
    <Button label="app.discounts.advertise" onClick={advertise} disabled={isPending}>
      <CampaignIcon />
    </Button>
  );
}

const CodeShowActions = () => (
  <TopToolbar>
    <ListButton />
    <AdvertiseButton />
    <EditButton />
    <DeleteUnless kept={(r) => r.uses > 0} reason="app.errors.discount_code_used" />
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
      <PlanNames source="planIds" />
      <BooleanField source="advertised" />
      <BooleanField source="active" />
      <NumberField source="uses" />
    </SimpleShowLayout>
  </Show>
);

/** The plans a code is for, by title (by id without `view_plan`); none means every plan. */
function PlanNames(_props: { source: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'plans', action: 'list' });
  if (!record?.planIds?.length) return <>{translate('app.discounts.every_plan')}</>;
  if (!canAccess) return <>{record.planIds.join('، ')}</>;
  return (
    <ReferenceArrayField source="planIds" reference="plans">
      <SingleFieldList linkType={false}>
        <ChipField source="title" size="small" />
      </SingleFieldList>
    </ReferenceArrayField>
  );
}

/**
 * The input's local time (`2026-12-21T23:59`, the browser's clock: Tehran for the staff) as ISO 8601 with its
 * offset, which the API requires; empty is no bound (null).
 */
const toIsoTime = (value: string | null | undefined): string | null => {
  const time = value ? new Date(value) : null;
  return time && !Number.isNaN(time.getTime()) ? time.toISOString() : null;
};

/** A bound of the code's window, with the chosen time in Tehran's (Jalali) calendar under it. */
function WindowInput({ source }: { source: 'validFrom' | 'validUntil' }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <FormDataConsumer>
      {({ formData }) => (
        <DateTimeInput
          source={source}
          parse={toIsoTime}
          helperText={
            <span data-testid={`${source}-shown`}>
              {formData[source] ? formatTime(formData[source], locale) : translate('app.discounts.no_bound')}
            </span>
          }
        />
      )}
    </FormDataConsumer>
  );
}

function CodeInputs() {
  return (
    <>
      <TextInput source="title" validate={validate.title} fullWidth />
      <NumberInput source="percent" validate={validate.percent} min={1} max={100} step={1} />
      <WindowInput source="validFrom" />
      <WindowInput source="validUntil" />
      <NumberInput source="maxUses" validate={validate.maxUses} min={1} step={1} helperText="app.discounts.max_uses_hint" />
      <NumberInput source="perUserLimit" validate={validate.perUserLimit} min={1} max={1000} step={1} />
      <ReferenceArrayInput source="planIds" reference="plans">
        <SelectArrayInput optionText="title" label="resources.discount-codes.fields.planIds" helperText="app.discounts.plans_hint" />
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
      <TextInput
        source="code"
        validate={validate.discountCode}
        slotProps={{ htmlInput: { dir: 'ltr' } }}
        helperText="app.discounts.code_hint"
      />
      <CodeInputs />
    </SimpleForm>
  </Create>
);

export const DiscountCodeEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm validate={validateWindow} toolbar={<SaveOnlyToolbar />}>
      <Labeled source="code">
        <TextField source="code" />
      </Labeled>
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
      <Col source="usableNow" field={BooleanField} />
    </DataTable>
  </AdminList>
);

export const OfferEdit = () => (
  <Edit mutationMode="pessimistic" redirect="list">
    <SimpleForm toolbar={<SaveOnlyToolbar />}>
      <Labeled source="code">
        <TextField source="code" />
      </Labeled>
      <TextInput source="title" validate={validate.title} fullWidth />
      <BooleanInput source="advertised" helperText="app.discounts.advertised_hint" />
    </SimpleForm>
  </Edit>
);
