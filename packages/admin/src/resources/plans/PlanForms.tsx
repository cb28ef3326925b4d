/**
 * Creating and editing a plan. The forms check what the API checks (common/validation.ts, from the API
 * description): title, price in whole toman, duration, tutor quota, features, badge, and the marketplace SKU's shape;
 * a SKU another plan holds is refused by the API (409 `sku_taken`) and shown under the SKU input. The marketplace
 * product type says how the marketplace sells the SKU (`subscription` or `inapp`; orders keep the type they were
 * bought with). A tutor quota edit applies to purchases from then on: a paid period keeps the quota it was bought
 * with (docs/decisions.md "A plan's tutor quota is bought with it"), as the input's hint says.
 */
import { BooleanInput, Create, Edit, NumberInput, SimpleForm, TextArrayInput, TextInput } from 'react-admin';
import { bodyChoices } from '../../api/contract';
import { SaveOnlyToolbar } from '../../common/actions';
import { ChoiceInput } from '../../common/fields';
import { validate } from '../../common/validation';

const PRODUCT_TYPES = bodyChoices('POST /api/admin/plans', 'marketplaceProductType');

function PlanInputs() {
  return (
    <>
      <TextInput source="title" validate={validate.title} fullWidth />
      <NumberInput source="price" validate={validate.price} step={1000} min={0} />
      <NumberInput source="durationDays" validate={validate.durationDays} step={1} min={1} />
      <NumberInput source="aiDailyQuota" validate={validate.aiDailyQuota} step={1} min={0} helperText="app.plans.quota_hint" />
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
      <ChoiceInput source="marketplaceProductType" group="productType" ids={PRODUCT_TYPES} helperText="app.plans.product_type_hint" />
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
