/**
 * A learner's page: the profile, the subscription, the streak and its freezes, the mistakes review's counts, the
 * parent's weekly report (the number masked by the API; DESIGN §13) and the latest orders. Read-only.
 */
import { Typography } from '@mui/material';
import { ArrayField, DataTable, Show, useCanAccess, useTranslate } from 'react-admin';
import { ChoiceField, DateTime, DayField, IdField, Money, StatusChip } from '../../common/fields';
import { Col } from '../../common/list';
import { bool, fields, id, num, phone, spec, status, text, time } from '../../common/specs';
import { DetailsAndHistory } from '../history/RecordHistory';
import { userRecordsTab } from './UserRecords';

function Heading({ text }: { text: string }) {
  const translate = useTranslate();
  return (
    <Typography variant="h6" sx={{ mt: 2 }}>
      {translate(text)}
    </Typography>
  );
}

const day = spec(DayField);

/** The learner's latest orders, for a staff member who may view orders (`view_user` alone shows no payments: the API sends null). */
function LatestOrders() {
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'list' });
  if (!canAccess) return null;
  return (
    <>
      <Heading text="app.orders.user_orders" />
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
    </>
  );
}

export const UserShow = () => (
  <Show>
    <DetailsAndHistory model="user" extra={userRecordsTab}>
      {fields(
        text('publicId'),
        id('id'),
        text('displayName', { emptyText: '—' }),
        phone('phone'),
        num('gradeId'),
        num('xp'),
        num('stars'),
        num('hearts'),
        num('streakCurrent'),
        text('subscription.planTitle', { emptyText: '—' }),
        bool('subscription.active', { emptyText: '—' }),
        time('subscription.expiresAt', { emptyText: '—' }),
        time('createdAt'),
        time('lastLoginAt', { emptyText: '—' }),
      )}
      <Heading text="app.users.learning" />
      {fields(
        num('streak.current'),
        num('streak.longest'),
        day('streak.lastDay', { emptyText: '—' }),
        num('streak.freezes'),
        num('streak.freezesUsed'),
        num('review.inReview'),
        num('review.due'),
        num('review.mastered'),
      )}
      <Heading text="app.users.parent_report" />
      {fields(
        status('parent.status', 'parentStatus', { emptyText: '—' }),
        phone('parent.phone'),
        phone('parent.pendingPhone'),
        time('parent.verifiedAt', { emptyText: '—' }),
        num('parent.reportsSent'),
        status('parent.lastReport.status', 'reportStatus', { emptyText: '—' }),
        time('parent.lastReport.at', { emptyText: '—' }),
        time('parent.nextReportAt', { emptyText: '—' }),
        time('parent.stoppedAt', { emptyText: '—' }),
      )}
      <LatestOrders />
    </DetailsAndHistory>
  </Show>
);
