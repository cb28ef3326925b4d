/** A learner's page: the profile, the subscription and the latest orders. Read-only. */
import { Typography } from '@mui/material';
import { ArrayField, BooleanField, DataTable, Show, TextField, useTranslate } from 'react-admin';
import { ChoiceField, DateTime, IdField, Money, Num, StatusChip } from '../../common/fields';
import { Col } from '../../common/list';
import { DetailsAndHistory } from '../history/RecordHistory';

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
    <DetailsAndHistory model="user">
      <TextField source="publicId" />
      <IdField source="id" />
      <TextField source="displayName" emptyText="—" />
      <TextField source="phone" />
      <Num source="gradeId" />
      <Num source="xp" />
      <Num source="stars" />
      <Num source="hearts" />
      <Num source="streakCurrent" />
      <TextField source="subscription.planTitle" emptyText="—" />
      <BooleanField source="subscription.active" />
      <DateTime source="subscription.expiresAt" emptyText="—" />
      <DateTime source="createdAt" />
      <DateTime source="lastLoginAt" emptyText="—" />
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
