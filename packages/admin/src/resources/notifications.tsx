/**
 * Notifications staff sent, and the send form (`add_notification`): to one user (by id) or to all, with a
 * title and a text.
 */

import { Typography } from '@mui/material';
import { BooleanInput, Create, DataTable, FormDataConsumer, NumberInput, SimpleForm, TextInput, useTranslate } from 'react-admin';
import { DateTime } from '../fields';
import { validate } from '../validation';
import { AdminList, Col } from './common';

export const NotificationList = () => (
  <AdminList>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="sentAt" field={DateTime} />
      <Col source="audience" render={(r: any) => <AudienceText audience={r.audience} />} />
      <Col source="userId" />
      <Col source="title" />
      <Col source="body" />
      <Col source="staff" />
    </DataTable>
  </AdminList>
);

function AudienceText({ audience }: { audience: string }) {
  const translate = useTranslate();
  return <>{translate(`choices.audience.${audience}`, { _: audience })}</>;
}

function Hint() {
  const translate = useTranslate();
  return (
    <Typography variant="body2" color="text.secondary">
      {translate('app.notifications.audience_hint')}
    </Typography>
  );
}

/** Exactly one audience: a user or all. */
function validateAudience(values: Record<string, any>) {
  const hasUser = values.userId !== undefined && values.userId !== null && values.userId !== '';
  if (hasUser === Boolean(values.all)) return { userId: 'app.validation.audience' };
  return {};
}

export const NotificationCreate = () => (
  <Create
    redirect="list"
    transform={(data: any) => ({ title: data.title, body: data.body, ...(data.all ? { all: true } : { userId: Number(data.userId) }) })}
  >
    <SimpleForm validate={validateAudience} defaultValues={{ all: false }}>
      <Hint />
      <FormDataConsumer>
        {({ formData }) => <NumberInput source="userId" validate={validate.userId} disabled={Boolean(formData.all)} />}
      </FormDataConsumer>
      <BooleanInput source="all" />
      <TextInput source="title" validate={validate.notificationTitle} fullWidth />
      <TextInput source="body" validate={validate.notificationBody} multiline minRows={3} fullWidth />
    </SimpleForm>
  </Create>
);
