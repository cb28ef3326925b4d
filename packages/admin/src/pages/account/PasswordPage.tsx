/**
 * Changing one's own password (`POST /api/admin/me/password { oldPassword, newPassword }`, any signed-in staff member):
 * the current password, the new one twice. A wrong current password is refused under its input; on success every other
 * session of this staff member ends and this browser stays signed in (the API sets a new cookie). Reached from the
 * user menu.
 */
import { Card, CardContent, Typography } from '@mui/material';
import { Form, PasswordInput, SaveButton, Title, type Validator } from 'react-admin';
import { usePageTools } from '../../common/usePageTools';
import { fieldValidators } from '../../common/validation';

const ROUTE = 'POST /api/admin/me/password';

/** The repeated password equals the new one. */
const sameAsNew: Validator = (value, values) => (value === values.newPassword ? undefined : 'app.account.password_mismatch');

export function PasswordPage() {
  const { translate, notify, dataProvider } = usePageTools();
  const submit = async (values: Record<string, any>) => {
    try {
      await dataProvider.changePassword(values.oldPassword, values.newPassword);
      notify('app.account.password_changed', { type: 'info' });
    } catch (error: any) {
      const fields = error?.body?.errors;
      if (fields && typeof fields === 'object') return fields;
      notify(error?.message ?? 'ra.notification.http_error', { type: 'error' });
    }
    return undefined;
  };
  return (
    <Card sx={{ mt: 2, maxWidth: 560 }}>
      <Title title={translate('app.account.password_title')} />
      <CardContent>
        <Typography variant="h5" component="h1" gutterBottom>
          {translate('app.account.password_title')}
        </Typography>
        <Form onSubmit={submit} resource="me">
          <PasswordInput
            source="oldPassword"
            label="app.account.old_password"
            validate={fieldValidators(ROUTE, 'oldPassword')}
            fullWidth
            autoComplete="current-password"
          />
          <PasswordInput
            source="newPassword"
            label="app.account.new_password"
            validate={fieldValidators(ROUTE, 'newPassword', { pattern: 'app.validation.password' })}
            fullWidth
            autoComplete="new-password"
          />
          <PasswordInput source="repeat" label="app.account.repeat_password" validate={[sameAsNew]} fullWidth autoComplete="new-password" />
          <SaveButton label="app.account.change_password" />
        </Form>
      </CardContent>
    </Card>
  );
}
