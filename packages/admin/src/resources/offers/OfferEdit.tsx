/**
 * An offer's title and whether its code is advertised (`change_offer`). Saved, it returns to the offer's page; an
 * offer withdrawn (advertised turned off) has no page any more (`GET /api/admin/offers/{code}` is 404 for a code not
 * advertised), so it returns to the offers list.
 */
import { BooleanInput, Edit, type Identifier, Labeled, type RaRecord, SimpleForm, TextField, TextInput } from 'react-admin';
import { SaveOnlyToolbar } from '../../common/actions';
import { validate } from '../../common/validation';

/** Where a saved offer goes: its page while advertised, else the list. */
const afterSave = (_resource?: string, id?: Identifier, data?: Partial<RaRecord>) =>
  data?.advertised === false || id === undefined ? '/offers' : `/offers/${encodeURIComponent(String(id))}/show`;

export const OfferEdit = () => (
  <Edit mutationMode="pessimistic" redirect={afterSave}>
    <SimpleForm toolbar={<SaveOnlyToolbar />}>
      <Labeled source="code">
        <TextField source="code" />
      </Labeled>
      <TextInput source="title" validate={validate.title} fullWidth />
      <BooleanInput source="advertised" helperText="app.discounts.advertised_hint" />
    </SimpleForm>
  </Edit>
);
