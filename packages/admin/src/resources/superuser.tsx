/**
 * Superuser-only screens: staff accounts (create with permissions, change, deactivate, delete), learners'
 * sessions (read-only, revoke) and OTP records (read-only; never a code).
 */
import {
  BooleanField,
  BooleanInput,
  CheckboxGroupInput,
  Create,
  DataTable,
  DeleteButton,
  Edit,
  FunctionField,
  PasswordInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  useTranslate,
} from 'react-admin';
import { ALL_PERMISSIONS } from '../contract';
import { DateTime, StatusChip } from '../fields';
import { validate } from '../validation';
import { AdminList, Col } from './common';

const permissionChoices = ALL_PERMISSIONS.map((id) => ({ id, name: `choices.permission.${id}` }));

function PermissionList({ permissions }: { permissions: string[] }) {
  const translate = useTranslate();
  return <>{permissions.map((p) => translate(`choices.permission.${p}`, { _: p })).join('، ')}</>;
}

export const StaffList = () => (
  <AdminList>
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="username" />
      <Col source="isSuperuser" field={BooleanField} />
      <Col source="active" field={BooleanField} />
      <Col source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      <Col source="createdAt" field={DateTime} />
    </DataTable>
  </AdminList>
);

export const StaffShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="username" />
      <BooleanField source="isSuperuser" />
      <BooleanField source="active" />
      <FunctionField source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      <DateTime source="createdAt" />
    </SimpleShowLayout>
  </Show>
);

function PasswordHint() {
  const translate = useTranslate();
  return translate('app.staff.password_hint');
}

export const StaffCreate = () => (
  <Create redirect="show">
    <SimpleForm defaultValues={{ isSuperuser: false, active: true, permissions: [] }}>
      <TextInput source="username" validate={validate.username} sx={{ direction: 'ltr' }} />
      <PasswordInput source="password" validate={validate.newPassword} autoComplete="new-password" />
      <BooleanInput source="isSuperuser" />
      <BooleanInput source="active" />
      <CheckboxGroupInput source="permissions" choices={permissionChoices} row={false} />
    </SimpleForm>
  </Create>
);

export const StaffEdit = () => (
  <Edit mutationMode="pessimistic" redirect="show">
    <SimpleForm>
      <TextField source="username" />
      <PasswordInput source="password" validate={validate.changedPassword} autoComplete="new-password" helperText={<PasswordHint />} />
      <BooleanInput source="isSuperuser" />
      <BooleanInput source="active" />
      <CheckboxGroupInput source="permissions" choices={permissionChoices} row={false} />
    </SimpleForm>
  </Edit>
);

const sessionFilters = [<TextInput key="userId" source="userId" alwaysOn />];

export const SessionList = () => (
  <AdminList filters={sessionFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="id" />
      <Col source="userId" />
      <Col source="createdAt" field={DateTime} />
      <Col source="expiresAt" field={DateTime} />
      <Col
        label={false}
        render={() => (
          <DeleteButton mutationMode="pessimistic" label="app.sessions.revoke" successMessage="app.sessions.revoked" redirect={false} />
        )}
      />
    </DataTable>
  </AdminList>
);

const otpFilters = [<TextInput key="phone" source="phone" alwaysOn />];

export const OtpRecordList = () => (
  <AdminList filters={otpFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="phone" />
      <Col source="attempts" />
      <Col source="sentAt" field={DateTime} />
      <Col source="expiresAt" field={DateTime} />
      <Col source="state" field={(p: any) => <StatusChip {...p} group="otp" />} />
    </DataTable>
  </AdminList>
);
