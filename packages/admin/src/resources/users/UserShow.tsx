/** A learner's page: the profile, the subscription and the latest orders. Read-only. */
import { Typography } from '@mui/material';
import { ArrayField, DataTable, Show, useTranslate } from 'react-admin';
import { ChoiceField, DateTime, IdField, Money, StatusChip } from '../../common/fields';
import { Col } from '../../common/list';
import { bool, fields, id, num, text, time } from '../../common/specs';
import { DetailsAndHistory } from '../history/RecordHistory';
import { userRecordsTab } from './UserRecords';

function OrdersHeading() {
  const translate = useTranslate();
  return (
    <Typography variant="h6" sx={{ mt: 2 }}>
      {translate('app.orders.user_orders')}
    </Typography>
  );
}

export const UserShow = () => (
  <Show>
    <DetailsAndHistory model="user" extra={userRecordsTab}>
      {fields(
        text('publicId'),
        id('id'),
        text('displayName', { emptyText: '—' }),
        text('phone'),
        num('gradeId'),
        num('xp'),
        num('stars'),
        num('hearts'),
        num('streakCurrent'),
        text('subscription.planTitle', { emptyText: '—' }),
        bool('subscription.active'),
        time('subscription.expiresAt', { emptyText: '—' }),
        time('createdAt'),
        time('lastLoginAt', { emptyText: '—' }),
      )}
      <OrdersHeading />
      <ArrayField source="orders" label={false}>
        <DataTable bulkActionButtons={false} rowClick={(id) => `/orders/${id}/show`} resource="orders">
          <Col source="id" field={IdField} />
          <Col source="planTitle" />
          <Col source="amount" field={Money} />
          <Col source="status" field={(p: any) => <StatusChip {...p} group="status" />} />
          <Col source="provider" field={(p: any) => <ChoiceField {...p} group="provider" />} />
          <Col source="createdAt" field={DateTime} />
        </DataTable>
      </ArrayField>
    </DetailsAndHistory>
  </Show>
);
