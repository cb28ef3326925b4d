/**
 * A record's own history (Django admin's object history): its page shows two tabs, its details and its history
 * (`GET /api/admin/history?model=&objectId=`, which whoever may view the record may read), newest first.
 */
import type { ReactNode } from 'react';
import {
  DataTable,
  ListContextProvider,
  ResourceContextProvider,
  TabbedShowLayout,
  TextField,
  useGetList,
  useList,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import { ChoiceField, DateTime } from '../../common/fields';
import { Col } from '../../common/list';
import { Changes } from './Changes';

/** The entries of the record in context, as history model `model` (its `idField`, default `id`, is the object id). */
export function RecordHistory({ model, idField = 'id' }: { model: string; idField?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const objectId = record?.[idField];
  const { data, isPending } = useGetList(
    'history',
    { filter: { model, objectId: String(objectId) }, pagination: { page: 1, perPage: 100 }, sort: { field: 'at', order: 'DESC' } },
    { enabled: objectId !== undefined },
  );
  const list = useList({ data: data ?? [], isPending, perPage: 100, resource: 'history' });
  return (
    <ResourceContextProvider value="history">
      <ListContextProvider value={list}>
        <DataTable bulkActionButtons={false} rowClick={false} empty={translate('app.history.empty')} data-testid="record-history">
          <Col source="at" field={DateTime} disableSort />
          <Col source="staff" field={TextField} />
          <Col source="action" field={(p: any) => <ChoiceField {...p} group="action" />} />
          <Col source="changes" render={() => <Changes />} />
        </DataTable>
      </ListContextProvider>
    </ResourceContextProvider>
  );
}

/**
 * A show page's body: its fields (`children`) on a Details tab, the page's own `extra` tabs, and the record's history
 * on a History tab.
 */
export function DetailsAndHistory({
  model,
  idField,
  extra,
  children,
}: {
  model: string;
  idField?: string;
  extra?: ReactNode;
  children: ReactNode;
}) {
  return (
    <TabbedShowLayout>
      <TabbedShowLayout.Tab label="app.tabs.details">{children}</TabbedShowLayout.Tab>
      {extra}
      <TabbedShowLayout.Tab label="app.tabs.history" path="history">
        <RecordHistory model={model} idField={idField} />
      </TabbedShowLayout.Tab>
    </TabbedShowLayout>
  );
}
