/** The tutor's feedback (filter rating; a row opens to the question and the answer rated): read-only. */
import { Box, Typography } from '@mui/material';
import { DataTable, useRecordContext, useTranslate } from 'react-admin';
import { queryChoices } from '../../api/contract';
import { ChoiceInput } from '../../common/fields';
import { AdminList, Col } from '../../common/list';
import { choice, columns, id, phoneRow, text, time } from '../../common/specs';

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
    mobile={phoneRow(false, choice('rating', 'rating'), text('comment', { emptyText: '—' }), time('at'))}
  >
    <DataTable rowClick="expand" expand={<Exchange />} bulkActionButtons={false}>
      {columns(
        time('at'),
        id('userId'),
        choice('rating', 'rating'),
        'comment',
        <Col source="question" render={(r: any) => (r.question?.length > 80 ? `${r.question.slice(0, 80)}…` : r.question)} />,
      )}
    </DataTable>
  </AdminList>
);
