/** The tutor's feedback (filter rating; a row opens to the question and the answer rated): read-only. */
import { Box, Typography } from '@mui/material';
import { DataTable, TextField, useRecordContext, useTranslate } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceField, ChoiceInput, DateTime, IdField } from '../../common/fields';
import { AdminList, Col } from '../../common/list';

const feedbackFilters = [
  <ChoiceInput key="rating" source="rating" group="rating" ids={queryChoices('tutor-feedback', 'rating')} alwaysOn />,
];

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
  <AdminList
    filters={feedbackFilters}
    mobile={{
      primaryText: <ChoiceField source="rating" group="rating" />,
      secondaryText: <TextField source="comment" emptyText="—" />,
      tertiaryText: <DateTime source="at" />,
      rowClick: false,
    }}
  >
    <DataTable rowClick="expand" expand={<Exchange />} bulkActionButtons={false}>
      <Col source="at" field={DateTime} />
      <Col source="userId" field={IdField} />
      <Col source="rating" field={(p: any) => <ChoiceField {...p} group="rating" />} />
      <Col source="comment" />
      <Col source="question" render={(r: any) => (r.question?.length > 80 ? `${r.question.slice(0, 80)}…` : r.question)} />
    </DataTable>
  </AdminList>
);
