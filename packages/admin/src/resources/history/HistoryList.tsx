/**
 * The staff history (`GET /api/admin/history`, `view_logentry`): every admin write, sign-in, sign-out and export,
 * newest first (the time column sorts both ways), filtered by kind of record, record, staff member, action and Tehran
 * days. A row links to its record's page where the panel has one.
 */
import { useEffect } from 'react';
import { DataTable, TextInput, useListContext, useRecordContext } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceInput } from '../../common/fields';
import { AdminList, Col } from '../../common/list';
import { TehranDayInput } from '../../common/pickers';
import { RecordPageLink } from '../../common/RecordPageLink';
import { choice, columns, phoneRow, text, time } from '../../common/specs';
import { Changes, RESOURCE_OF_MODEL } from './Changes';

const historyFilters = [
  <ChoiceInput key="model" source="model" group="model" ids={queryChoices('history', 'model')} alwaysOn />,
  <ChoiceInput key="action" source="action" group="action" ids={queryChoices('history', 'action')} alwaysOn />,
  <TextInput key="staff" source="staff" alwaysOn />,
  <TehranDayInput key="from" source="from" alwaysOn />,
  <TehranDayInput key="to" source="to" alwaysOn />,
  <ObjectIdInput key="objectId" source="objectId" />,
];

/**
 * The record filter: the API takes a record only with its kind (`objectId needs model`, 400), so the input waits for
 * a kind to be chosen instead of letting the list fail.
 */
function ObjectIdInput({ source }: { source: string }) {
  const { filterValues, setFilters, displayedFilters } = useListContext();
  const chosen = Boolean(filterValues.model);
  // The kind cleared while a record was given: the record goes too.
  useEffect(() => {
    if (chosen || filterValues[source] === undefined) return;
    const { [source]: _dropped, ...rest } = filterValues;
    setFilters(rest, displayedFilters);
  }, [chosen, filterValues, source, setFilters, displayedFilters]);
  // A filter form shows no helper text: the label says what to do.
  return <TextInput source={source} disabled={!chosen} {...(chosen ? {} : { label: 'app.history.object_needs_model' })} />;
}

/**
 * The entry's record, by how it read then, linked to its page where the panel has one that this staff member may
 * open (common/RecordPageLink.tsx): a notification, a payment event, a session or an OTP record has none.
 */
function RecordLink() {
  const record = useRecordContext();
  if (!record) return null;
  const label = <bdi>{record.objectRepr ?? record.objectId ?? ''}</bdi>;
  if (!record.objectId) return label;
  return (
    <RecordPageLink resource={RESOURCE_OF_MODEL[record.model]} id={record.objectId}>
      {label}
    </RecordPageLink>
  );
}

export const HistoryList = () => (
  <AdminList
    filters={historyFilters}
    sort={{ field: 'at', order: 'DESC' }}
    mobile={phoneRow(false, choice('action', 'action'), <RecordLink />, time('at'))}
  >
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns(
        time('at'),
        text('staff'),
        choice('action', 'action'),
        choice('model', 'model'),
        <Col source="objectRepr" render={() => <RecordLink />} />,
        <Col source="changes" render={() => <Changes />} />,
      )}
    </DataTable>
  </AdminList>
);
