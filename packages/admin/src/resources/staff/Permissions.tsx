/** A staff member's permissions: the form's checkboxes (each by its Persian name and its code) and the list as text. */
import { Typography } from '@mui/material';
import { CheckboxGroupInput, FormDataConsumer, useRecordContext, useTranslate } from 'react-admin';
import { ALL_PERMISSIONS } from '../../api/contract';

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
export function PermissionsInput() {
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

export function PermissionList({ permissions }: { permissions: string[] }) {
  const translate = useTranslate();
  return <>{permissions.map((p) => translate(`choices.permission.${p}`, { _: p })).join('، ')}</>;
}
