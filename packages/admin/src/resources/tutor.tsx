/**
 * The tutor's feedback (filter rating; a row opens to the question and the answer rated) and usage per Tehran
 * day (filters from, to: default the 30 days to today, at most 400; zeros on quiet days): read-only.
 */
import { Box, Typography } from '@mui/material';
import { DataTable, DateInput, NumberField, useRecordContext, useTranslate } from 'react-admin';
import { RATINGS } from '../contract';
import { ChoiceField, ChoiceInput, DateTime, DayField } from '../fields';
import { AdminList, Col } from './common';

const feedbackFilters = [<ChoiceInput key="rating" source="rating" group="rating" ids={RATINGS} alwaysOn />];

function Exchange() {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  return (
    <Box sx={{ p: 1 }}>
      <Typography variant="subtitle2">{translate('resources.tutor-feedback.fields.question')}</Typography>
      <Typography sx={{ whiteSpace: 'pre-wrap', mb: 1 }}>{record.question}</Typography>
      <Typography variant="subtitle2">{translate('resources.tutor-feedback.fields.answer')}</Typography>
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{record.answer}</Typography>
    </Box>
  );
}

export const TutorFeedbackList = () => (
  <AdminList filters={feedbackFilters}>
    <DataTable rowClick="expand" expand={<Exchange />} bulkActionButtons={false}>
      <Col source="at" field={DateTime} />
      <Col source="userId" />
      <Col source="rating" field={(p: any) => <ChoiceField {...p} group="rating" ids={RATINGS} />} />
      <Col source="comment" />
      <Col source="question" render={(r: any) => (r.question?.length > 80 ? `${r.question.slice(0, 80)}…` : r.question)} />
    </DataTable>
  </AdminList>
);

const usageFilters = [<DateInput key="from" source="from" alwaysOn />, <DateInput key="to" source="to" alwaysOn />];

export const TutorUsageList = () => (
  <AdminList filters={usageFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="day" field={DayField} />
      <Col source="answers" field={NumberField} />
      <Col source="cachedAnswers" field={NumberField} />
      <Col source="promptTokens" field={NumberField} />
      <Col source="completionTokens" field={NumberField} />
      <Col source="refusals" field={NumberField} />
    </DataTable>
  </AdminList>
);
