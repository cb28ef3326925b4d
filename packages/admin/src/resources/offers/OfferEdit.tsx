/** An offer's title and whether its code is advertised (`change_offer`). */
import { BooleanInput, Edit, Labeled, SimpleForm, TextField, TextInput } from 'react-admin';
import { SaveOnlyToolbar } from '../../common/actions';
import { validate } from '../../common/validation';

export const OfferEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm toolbar={<SaveOnlyToolbar />}>
      <Labeled source="code">
        <TextField source="code" />
      </Labeled>
      <TextInput source="title" validate={validate.title} fullWidth />
      <BooleanInput source="advertised" helperText="app.discounts.advertised_hint" />
    </SimpleForm>
  </Edit>
);
