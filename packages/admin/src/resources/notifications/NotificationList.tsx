/** The notifications staff sent, newest first. */
import { DataTable, TextField, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { DateTime } from '../../common/fields';
import { AdminList, Col } from '../../common/list';
import { columns, time } from '../../common/specs';

export const NotificationList = () => (
  <AdminList mobile={{ primaryText: <TextField source="title" />, secondaryText: <DateTime source="sentAt" />, rowClick: false }}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns(
        time('sentAt'),
        <Col source="audience" render={(r: any) => <AudienceText audience={r.audience} />} />,
        <Col source="userId" render={(r: any) => (r.userId ? <Link to={`/users/${r.userId}/show`}>{r.userId}</Link> : '')} />,
        'title',
        'body',
        'staff',
      )}
    </DataTable>
  </AdminList>
);

function AudienceText({ audience }: { audience: string }) {
  const translate = useTranslate();
  return <>{translate(`choices.audience.${audience}`, { _: audience })}</>;
}
