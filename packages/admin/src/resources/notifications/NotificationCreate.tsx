/**
 * The send form (`add_notification`): to one learner or to all, with a title (1-100 characters) and a text
 * (1-2000). The learner is picked by public id, phone or name (the users search) when this staff member may list
 * users, else typed by numeric id; an unknown id is refused by the API (400, under the input). "All" is one broadcast
 * every learner who joined before it sees.
 */
import SendIcon from '@mui/icons-material/Send';
import { Typography } from '@mui/material';
import {
  AutocompleteInput,
  BooleanInput,
  Create,
  FormDataConsumer,
  NumberInput,
  ReferenceInput,
  SaveButton,
  SimpleForm,
  TextInput,
  Toolbar,
  useCanAccess,
  useNotify,
  useRedirect,
  useTranslate,
} from 'react-admin';
import { validate } from '../../common/validation';

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

/** The learner: a search over the users list (public id, phone, name), or a numeric id without `view_user`. */
function UserInput({ disabled }: { disabled: boolean }) {
  const { canAccess } = useCanAccess({ resource: 'users', action: 'list' });
  if (disabled) return <NumberInput source="userId" disabled helperText={false} />;
  if (!canAccess) return <NumberInput source="userId" min={1} step={1} helperText="app.notifications.user_id_hint" />;
  return (
    <ReferenceInput source="userId" reference="users">
      <AutocompleteInput
        label="resources.notifications.fields.userId"
        optionText={(u: any) => [u.publicId, u.displayName, u.phone].filter(Boolean).join(' · ')}
        filterToQuery={(q: string) => ({ q })}
        helperText="app.notifications.user_hint"
        sx={{ minWidth: 360 }}
      />
    </ReferenceInput>
  );
}

const SendToolbar = () => (
  <Toolbar>
    <SaveButton label="app.notifications.send" icon={<SendIcon />} />
  </Toolbar>
);

export function NotificationCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onSuccess = () => {
    notify('app.notifications.sent', { type: 'info' });
    redirect('list', 'notifications');
  };
  return (
    <Create
      mutationOptions={{ onSuccess }}
      transform={(data: any) => ({ title: data.title, body: data.body, ...(data.all ? { all: true } : { userId: Number(data.userId) }) })}
    >
      <SimpleForm validate={validateAudience} defaultValues={{ all: false }} toolbar={<SendToolbar />}>
        <Hint />
        <BooleanInput source="all" />
        <FormDataConsumer>{({ formData }) => <UserInput disabled={Boolean(formData.all)} />}</FormDataConsumer>
        <TextInput source="title" validate={validate.notificationTitle} fullWidth />
        <TextInput source="body" validate={validate.notificationBody} multiline minRows={3} fullWidth />
      </SimpleForm>
    </Create>
  );
}
