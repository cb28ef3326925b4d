/** The tutor's usage per Tehran day (filters from, to: default the 30 days to today, at most 400; zeros on quiet days). */
import { DataTable } from 'react-admin';
import { DayField, Num } from '../../common/fields';
import { AdminList, Col } from '../../common/list';
import { TehranDayInput } from '../../common/pickers';

const usageFilters = [<TehranDayInput key="from" source="from" alwaysOn />, <TehranDayInput key="to" source="to" alwaysOn />];

export const TutorUsageList = () => (
  <AdminList
    filters={usageFilters}
    mobile={{ primaryText: <DayField source="day" />, secondaryText: <Num source="answers" />, rowClick: false }}
  >
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="day" field={DayField} />
      <Col source="answers" field={Num} />
      <Col source="cachedAnswers" field={Num} />
      <Col source="promptTokens" field={Num} />
      <Col source="completionTokens" field={Num} />
      <Col source="refusals" field={Num} />
      <Col source="incomplete" field={Num} />
    </DataTable>
  </AdminList>
);
