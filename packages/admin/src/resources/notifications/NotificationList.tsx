/** The notifications staff sent, newest first. */
import { DataTable, TextField, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { DateTime } from '../../common/fields';
import { AdminList, Col } from '../../common/list';

export const NotificationList = () => (
  <AdminList mobile={{ primaryText: <TextField source="title" />, secondaryText: <DateTime source="sentAt" />, rowClick: false }}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="sentAt" field={DateTime} />
      <Col source="audience" render={(r: any) => <AudienceText audience={r.audience} />} />
      <Col source="userId" render={(r: any) => (r.userId ? <Link to={`/users/${r.userId}/show`}>{r.userId}</Link> : '')} />
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
