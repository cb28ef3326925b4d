/**
 * Superuser-only screens: staff accounts (create with permissions, change, deactivate, delete, end every session of
 * one: staffSessions.tsx; a username taken is 409 `username_taken` under the input; a superuser cannot deactivate,
 * demote or delete themselves), learners'
 * sessions (read-only, revoke after a confirmation: the learner is signed out) and OTP records (read-only; never a
 * code).
 */
import { Typography } from '@mui/material';
import {
  BooleanField,
  BooleanInput,
  CheckboxGroupInput,
  Create,
  DataTable,
  DeleteButton,
  Edit,
  EditButton,
  FormDataConsumer,
  FunctionField,
  Labeled,
  PasswordInput,
  Show,
  SimpleForm,
  SimpleShowLayout,
  TextField,
  TextInput,
  TopToolbar,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { Link } from 'react-router-dom';
import { ALL_PERMISSIONS } from '../contract';
import { DateTime, StatusChip } from '../fields';
import { validate } from '../validation';
import { AdminList, Col } from './common';
import { EndSessionsButton } from './staffSessions';

/** Each permission by its Persian (or English) name, with the API's name beside it (refusals name it). */
function PermissionChoice() {
  const record = useRecordContext<{ id: string }>();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <>
      {translate(`choices.permission.${record.id}`, { _: record.id })}{' '}
      <Typography component="bdi" variant="caption" color="text.secondary">
        ({record.id})
      </Typography>
    </>
  );
}

const permissionChoices = ALL_PERMISSIONS.map((id) => ({ id }));

/** The permissions box; hidden for a superuser, who holds every permission. */
function PermissionsInput() {
  return (
    <FormDataConsumer>
      {({ formData }) =>
        formData.isSuperuser ? null : (
          <CheckboxGroupInput source="permissions" choices={permissionChoices} optionText={<PermissionChoice />} row={false} />
        )
      }
    </FormDataConsumer>
  );
}

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

const StaffShowActions = () => (
  <TopToolbar>
    <EndSessionsButton />
    <EditButton />
  </TopToolbar>
);

export const StaffShow = () => (
  <Show actions={<StaffShowActions />}>
    <SimpleShowLayout>
      <TextField source="username" />
      <BooleanField source="isSuperuser" />
      <BooleanField source="active" />
      <FunctionField source="permissions" render={(r: any) => <PermissionList permissions={r.permissions ?? []} />} />
      <DateTime source="createdAt" />
      <DateTime source="updatedAt" />
    </SimpleShowLayout>
  </Show>
);

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

const sessionFilters = [<TextInput key="userId" source="userId" alwaysOn />];

export const SessionList = () => (
  <AdminList filters={sessionFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="userPublicId" render={(r: any) => <Link to={`/users/${r.userId}/show`}>{r.userPublicId ?? r.userId}</Link>} />
      <Col source="userId" />
      <Col source="createdAt" field={DateTime} />
      <Col source="expiresAt" field={DateTime} />
      <Col source="id" render={(r: any) => <bdi style={{ fontSize: '0.75rem' }}>{r.id}</bdi>} />
      <Col
        label={false}
        render={(r: any) => (
          <DeleteButton
            mutationMode="pessimistic"
            label="app.sessions.revoke"
            successMessage="app.sessions.revoked"
            confirmTitle="app.sessions.revoke_title"
            confirmContent="app.sessions.revoke_confirm"
            translateOptions={{ user: r.userPublicId ?? r.userId }}
            redirect={false}
          />
        )}
      />
    </DataTable>
  </AdminList>
);

const otpFilters = [<TextInput key="phone" source="phone" alwaysOn />];

export const OtpRecordList = () => (
  <AdminList filters={otpFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="phone" render={(r: any) => <bdi>{r.phone}</bdi>} />
      <Col source="codeSent" field={BooleanField} />
      <Col source="attempts" />
      <Col source="sentAt" field={DateTime} />
      <Col source="expiresAt" field={DateTime} />
      <Col source="state" field={(p: any) => <StatusChip {...p} group="otp" />} />
    </DataTable>
  </AdminList>
);
