/**
 * Creating (superuser) and editing (superuser) a discount code. A code's window is picked in Tehran time, whatever
 * the browser's clock, and shown under the input in words (the Jalali calendar in Persian); an empty bound is no limit. An empty plan
 * list means every plan. A code another one already has is refused (409 `code_taken`, under the input).
 */
import {
  BooleanInput,
  Create,
  Edit,
  FormDataConsumer,
  Labeled,
  NumberInput,
  ReferenceArrayInput,
  SelectArrayInput,
  SimpleForm,
  TextField,
  TextInput,
  useLocaleState,
  useTranslate,
} from 'react-admin';
import { SaveOnlyToolbar } from '../../common/actions';
import { formatTime } from '../../common/fields';
import { TehranDateTimeInput } from '../../common/pickers';
import { validate, validateWindow } from '../../common/validation';

/** A bound of the code's window, picked in Tehran time, with the chosen time in words under it (Jalali in Persian). */
function WindowInput({ source }: { source: 'validFrom' | 'validUntil' }) {
  const translate = useTranslate();
  const [locale] = useLocaleState();
  return (
    <FormDataConsumer>
      {({ formData }) => (
        <TehranDateTimeInput
          source={source}
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
