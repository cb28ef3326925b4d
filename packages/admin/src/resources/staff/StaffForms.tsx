/**
 * Creating and changing a staff account (superuser): username (a taken one is 409 `username_taken` under the input),
 * password, superuser, active and permissions; a superuser cannot deactivate, demote or delete themselves (the API
 * refuses).
 */
import { BooleanInput, Create, Edit, Labeled, PasswordInput, SimpleForm, TextField, TextInput, useTranslate } from 'react-admin';
import { validate } from '../../common/validation';
import { PermissionsInput } from './Permissions';

function PasswordHint() {
  const translate = useTranslate();
  return translate('app.staff.password_hint');
}

/** A superuser holds every permission: a list sent with one would mean nothing. */
const staffBody = (data: any) => (data.isSuperuser ? { ...data, permissions: [] } : data);

export const StaffCreate = () => (
  <Create
    redirect="show"
    transform={(data: any) =>
      staffBody({
        ...data,
        username: String(data.username ?? '')
          .trim()
          .toLowerCase(),
      })
    }
  >
    <SimpleForm defaultValues={{ isSuperuser: false, active: true, permissions: [] }}>
      <TextInput
        source="username"
        validate={validate.username}
        slotProps={{ htmlInput: { dir: 'ltr' } }}
        helperText="app.staff.username_hint"
      />
      <PasswordInput
        source="password"
        validate={validate.newPassword}
        autoComplete="new-password"
        helperText="app.staff.new_password_hint"
      />
      <BooleanInput source="isSuperuser" helperText="app.staff.superuser_hint" />
      <BooleanInput source="active" />
      <PermissionsInput />
    </SimpleForm>
  </Create>
);

export const StaffEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show" transform={staffBody}>
    <SimpleForm>
      <Labeled source="username">
        <TextField source="username" />
      </Labeled>
      <PasswordInput source="password" validate={validate.changedPassword} autoComplete="new-password" helperText={<PasswordHint />} />
      <BooleanInput source="isSuperuser" helperText="app.staff.superuser_hint" />
      <BooleanInput source="active" />
      <PermissionsInput />
    </SimpleForm>
  </Edit>
);
