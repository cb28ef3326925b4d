/**
 * A learner's records on their page (the «سوابق» tab): their orders, support tickets, tutor usage per Tehran day
 * (`GET /api/admin/users/{id}/tutor-usage`) and, for a superuser, their live session; each part only for those who may
 * list it.
 */
import { Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import {
  DataTable,
  ListContextProvider,
  Pagination,
  ReferenceManyField,
  TabbedShowLayout,
  useCanAccess,
  useList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { api } from '../../api/http';
import { DayField } from '../../common/fields';
import { columns, id, money, num, status, time } from '../../common/specs';

function Part({ title, resource, children }: { title: string; resource: string; children: ReactNode }) {
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource, action: 'list' });
  if (!canAccess) return null;
  return (
    <section data-testid={`user-${resource}`}>
      <Typography variant="h6" sx={{ mt: 2 }}>
        {translate(title)}
      </Typography>
      {children}
    </section>
  );
}

/** The learner's questions to the tutor and tokens per Tehran day, newest first. */
function TutorUsage() {
  const record = useRecordContext();
  const { data, isPending } = useQuery({
    queryKey: ['users', 'tutor-usage', record?.id],
    queryFn: async () =>
      (await api<{ items: Record<string, unknown>[] }>(`users/${encodeURIComponent(String(record?.id))}/tutor-usage`)).json.items,
    enabled: record !== undefined,
  });
  const list = useList({ data: (data ?? []).map((d) => ({ ...d, id: d.day as string })), isPending, perPage: 31, resource: 'tutor-usage' });
  return (
    <ListContextProvider value={list}>
      <DataTable bulkActionButtons={false} rowClick={false} resource="tutor-usage">
        {columns(
          <DataTable.Col key="day" source="day" field={DayField} />,
          num('questions'),
          num('limit'),
          num('promptTokens'),
          num('completionTokens'),
        )}
      </DataTable>
    </ListContextProvider>
  );
}

/** The «سوابق» (records) tab of a learner's page (an element: TabbedShowLayout reads its tabs' props). */
export const userRecordsTab = (
  <TabbedShowLayout.Tab label="app.tabs.related" path="records">
    <Part title="resources.orders.name" resource="orders">
      <ReferenceManyField reference="orders" target="userId" perPage={10} pagination={<Pagination rowsPerPageOptions={[]} />}>
        <DataTable bulkActionButtons={false} rowClick="show">
          {columns(id('id'), 'planTitle', money('amount'), status('status', 'status'), time('createdAt'))}
        </DataTable>
      </ReferenceManyField>
    </Part>
    <Part title="resources.tickets.name" resource="tickets">
      <ReferenceManyField reference="tickets" target="userId" perPage={10} pagination={<Pagination rowsPerPageOptions={[]} />}>
        <DataTable bulkActionButtons={false} rowClick="show">
          {columns(id('id'), 'subject', status('status', 'ticket'), time('updatedAt'))}
        </DataTable>
      </ReferenceManyField>
    </Part>
    <Part title="resources.tutor-usage.name" resource="tutor-usage">
      <TutorUsage />
    </Part>
    <Part title="resources.sessions.name" resource="sessions">
      <ReferenceManyField reference="sessions" target="userId">
        <DataTable bulkActionButtons={false} rowClick={false}>
          {columns(time('createdAt'), time('expiresAt'))}
        </DataTable>
      </ReferenceManyField>
    </Part>
  </TabbedShowLayout.Tab>
);
