/**
 * Learners: search by public id (`User123456`), phone or part of the display name (`q`), and a show page with
 * the subscription and the latest orders, the streak and its freezes, the mistakes review's counts and the parent's
 * weekly report (the number masked by the API; DESIGN §13). Read-only.
 */
import { Typography } from '@mui/material';
import {
  ArrayField,
  BooleanField,
  DataTable,
  FunctionField,
  NumberField,
  SearchInput,
  Show,
  SimpleShowLayout,
  TextField,
  useFieldValue,
  useTranslate,
} from 'react-admin';
import { PROVIDERS } from '../contract';
import { ChoiceField, DateTime, DayField, Money, StatusChip } from '../fields';
import { AdminList, Col } from './common';

function UserSearch(props: { source: string; alwaysOn?: boolean }) {
  const translate = useTranslate();
  return <SearchInput {...props} placeholder={translate('app.users.search_hint')} sx={{ minWidth: 440 }} />;
}

const userFilters = [<UserSearch key="q" source="q" alwaysOn />];

export const UserList = () => (
  <AdminList filters={userFilters}>
    <DataTable rowClick="show" bulkActionButtons={false}>
      <Col source="publicId" />
      <Col source="displayName" />
      <Col source="phone" />
      <Col source="gradeId" field={NumberField} />
      <Col source="xp" field={NumberField} />
      <Col source="subscription.active" field={BooleanField} />
      <Col source="subscription.expiresAt" field={DateTime} />
      <Col source="createdAt" field={DateTime} />
      <Col source="lastLoginAt" field={DateTime} />
    </DataTable>
  </AdminList>
);

/** A masked number (`0912****567`) read left to right inside the right-to-left page. */
function MaskedPhone(props: { source: string }) {
  const value = useFieldValue(props);
  return <FunctionField {...props} render={() => (value ? <span dir="ltr">{String(value)}</span> : '—')} />;
}

function Heading({ text }: { text: string }) {
  const translate = useTranslate();
  return (
    <Typography variant="h6" sx={{ mt: 2 }}>
      {translate(text)}
    </Typography>
  );
}

export const UserShow = () => (
  <Show>
    <SimpleShowLayout>
      <TextField source="publicId" />
      <NumberField source="id" options={{ useGrouping: false }} />
      <TextField source="displayName" emptyText="—" />
      <TextField source="phone" />
      <NumberField source="gradeId" />
      <NumberField source="xp" />
      <NumberField source="stars" />
      <NumberField source="hearts" />
      <NumberField source="streakCurrent" />
      <TextField source="subscription.planTitle" emptyText="—" />
      <BooleanField source="subscription.active" />
      <DateTime source="subscription.expiresAt" emptyText="—" />
      <DateTime source="createdAt" />
      <DateTime source="lastLoginAt" emptyText="—" />
      <Heading text="app.users.learning" />
      <NumberField source="streak.current" />
      <NumberField source="streak.longest" />
      <DayField source="streak.lastDay" emptyText="—" />
      <NumberField source="streak.freezes" />
      <NumberField source="streak.freezesUsed" />
      <NumberField source="review.inReview" />
      <NumberField source="review.due" />
      <NumberField source="review.mastered" />
      <Heading text="app.users.parent_report" />
      <StatusChip source="parent.status" group="parentStatus" />
      <MaskedPhone source="parent.phone" />
      <MaskedPhone source="parent.pendingPhone" />
      <DateTime source="parent.verifiedAt" emptyText="—" />
      <NumberField source="parent.reportsSent" />
      <StatusChip source="parent.lastReport.status" group="reportStatus" />
      <DateTime source="parent.lastReport.at" emptyText="—" />
      <DateTime source="parent.nextReportAt" emptyText="—" />
      <DateTime source="parent.stoppedAt" emptyText="—" />
      <Heading text="app.orders.user_orders" />
      <ArrayField source="orders" label={false}>
        <DataTable bulkActionButtons={false} rowClick={(id) => `/orders/${id}/show`} resource="orders">
          <Col source="id" />
          <Col source="planTitle" />
          <Col source="amount" field={Money} />
          <Col source="status" field={(p: any) => <StatusChip {...p} group="status" />} />
          <Col source="provider" field={(p: any) => <ChoiceField {...p} group="provider" ids={PROVIDERS} />} />
          <Col source="createdAt" field={DateTime} />
        </DataTable>
      </ArrayField>
    </SimpleShowLayout>
  </Show>
);
