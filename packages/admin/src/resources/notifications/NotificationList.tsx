/** The notifications staff sent, newest first. */
import { DataTable, TextField, useTranslate } from 'react-admin';
import { DateTime } from '../../common/fields';
import { AdminList, Col } from '../../common/list';
import { RecordPageLink } from '../../common/RecordPageLink';
import { columns, time } from '../../common/specs';

export const NotificationList = () => (
  <AdminList mobile={{ primaryText: <TextField source="title" />, secondaryText: <DateTime source="sentAt" />, rowClick: false }}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns(
        time('sentAt'),
        <Col source="audience" render={(r: any) => <AudienceText audience={r.audience} />} />,
        <Col
          source="userId"
          render={(r: any) =>
            r.userId ? (
              <RecordPageLink resource="users" id={r.userId}>
                {r.userId}
              </RecordPageLink>
            ) : (
              ''
            )
          }
        />,
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
