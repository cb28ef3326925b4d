/**
 * A record's own history (Django admin's object history): its page shows two tabs, its details and its history
 * (`GET /api/admin/history?model=&objectId=`, which whoever may view the record may read), newest first, a page at a
 * time (the API's cursor behind react-admin's page numbers), however many entries the record has.
 */
import type { ReactNode } from 'react';
import { DataTable, ListBase, TabbedShowLayout, TextField, useRecordContext, useTranslate } from 'react-admin';
import { ChoiceField, DateTime } from '../../common/fields';
import { AdminPagination, Col } from '../../common/list';
import { Changes } from './Changes';

/** Entries a history page shows at first (the bar offers 10 to 100). */
const PER_PAGE = 25;

/**
 * The entries of one record of history model `model`: the record in context, identified by its `idField` (default
 * `id`), or the record `objectId` names (a page that is no record of a list, e.g. the marketplace connection).
 */
export function RecordHistory({ model, idField = 'id', objectId }: { model: string; idField?: string; objectId?: string }) {
  const record = useRecordContext();
  const id = objectId ?? record?.[idField];
  if (id === undefined || id === null) return null;
  return <EntriesOf model={model} objectId={String(id)} />;
}

function EntriesOf({ model, objectId }: { model: string; objectId: string }) {
  const translate = useTranslate();
  // Not the list page's address or saved state: the record's page owns both. The history list's own access rule
  // (view_logentry) does not apply: one record's history needs only the record's view permission, which the API checks.
  return (
    <ListBase
      resource="history"
      filter={{ model, objectId }}
      sort={{ field: 'at', order: 'DESC' }}
      perPage={PER_PAGE}
      disableSyncWithLocation
      storeKey={false}
      disableAuthentication
    >
      <DataTable bulkActionButtons={false} rowClick={false} empty={translate('app.history.empty')} data-testid="record-history">
        <Col source="at" field={DateTime} disableSort />
        <Col source="staff" field={TextField} />
        <Col source="action" field={(p: any) => <ChoiceField {...p} group="action" />} />
        <Col source="changes" render={() => <Changes />} />
      </DataTable>
      <AdminPagination />
    </ListBase>
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
