/**
 * A support ticket's page: the conversation, and with `change_ticket` a reply box (`POST …/messages` `{ text }`,
 * 1-5000 characters; the ticket becomes `answered`) and a close button (`POST …/close`; the learner's next message
 * reopens it).
 */
import CloseIcon from '@mui/icons-material/Close';
import SendIcon from '@mui/icons-material/Send';
import { Box, Button as MuiButton, TextField as MuiTextField, Paper, Stack, Typography } from '@mui/material';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  ListButton,
  Show,
  TopToolbar,
  useCanAccess,
  useDataProvider,
  useLocaleState,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';
import type { AdminDataProvider } from '../../api/dataProvider';
import { formatTime } from '../../common/fields';
import { fields, id, status, text, time } from '../../common/specs';
import { fieldMax } from '../../common/validation';
import { intlLocale } from '../../i18n';
import { DetailsAndHistory } from '../history/RecordHistory';

/** The longest reply the API takes. */
const MAX_REPLY = fieldMax('POST /api/admin/tickets/{id}/messages', 'text');

function useTicketAction<T>(run: () => Promise<T>, done: string) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      notify(done, { type: 'info' });
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
  });
}

function CloseTicketButton() {
  const record = useRecordContext();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'tickets', action: 'close' });
  const close = useTicketAction(() => dataProvider.closeTicket(record!.id), 'app.tickets.closed');
  if (!record || record.status === 'closed' || !canAccess) return null;
  return (
    <Button label="app.tickets.close" onClick={() => close.mutate()} disabled={close.isPending}>
      <CloseIcon />
    </Button>
  );
}

const TicketShowActions = () => (
  <TopToolbar>
    <ListButton />
    <CloseTicketButton />
  </TopToolbar>
);

function Conversation() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const messages: { from: string; text: string; at: string; staff?: string }[] = record?.messages ?? [];
  return (
    <Box sx={{ width: '100%' }}>
      <Typography variant="h6">{translate('app.tickets.conversation')}</Typography>
      <Stack spacing={1} sx={{ mt: 1, maxWidth: 720 }}>
        {messages.map((m, i) => (
          <Paper
            // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only and have no id
            key={i}
            data-testid={`message-${m.from}`}
            variant="outlined"
            sx={{
              p: 1.5,
              alignSelf: m.from === 'staff' ? 'flex-end' : 'flex-start',
              bgcolor: m.from === 'staff' ? 'action.hover' : undefined,
            }}
          >
            <Typography variant="caption" color="text.secondary">
              {translate(`choices.from.${m.from}`, { _: m.from })}
              {m.staff ? ` (${m.staff})` : ''} · {formatTime(m.at, locale)}
            </Typography>
            <Typography sx={{ whiteSpace: 'pre-wrap' }}>{m.text}</Typography>
          </Paper>
        ))}
      </Stack>
    </Box>
  );
}

function ReplyBox() {
  const record = useRecordContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const dataProvider = useDataProvider<AdminDataProvider>();
  const { canAccess } = useCanAccess({ resource: 'tickets', action: 'reply' });
  const [text, setText] = useState('');
  const reply = useTicketAction(() => dataProvider.replyTicket(record!.id, text.trim()), 'app.tickets.replied');
  if (!record || record.status === 'closed' || !canAccess) return null;
  const tooLong = text.length > MAX_REPLY;
  return (
    <Box sx={{ mt: 2, maxWidth: 720, width: '100%' }}>
      <MuiTextField
        label={translate('app.tickets.reply')}
        placeholder={translate('app.tickets.reply_placeholder')}
        multiline
        minRows={3}
        fullWidth
        value={text}
        error={tooLong}
        helperText={tooLong ? translate('app.tickets.too_long', { max: MAX_REPLY.toLocaleString(intlLocale(locale)) }) : undefined}
        slotProps={{ htmlInput: { 'data-testid': 'reply-text' } }}
        onChange={(e) => setText(e.target.value)}
      />
      <MuiButton
        sx={{ mt: 1 }}
        variant="contained"
        startIcon={<SendIcon />}
        disabled={!text.trim() || tooLong || reply.isPending}
        onClick={() => reply.mutate(undefined, { onSuccess: () => setText('') })}
      >
        {translate('app.tickets.send_reply')}
      </MuiButton>
    </Box>
  );
}

export const TicketShow = () => (
  <Show actions={<TicketShowActions />}>
    <DetailsAndHistory model="ticket">
      {fields(
        text('subject'),
        text('userPublicId', { emptyText: '—' }),
        id('userId'),
        status('status', 'ticket'),
        time('createdAt'),
        time('updatedAt'),
      )}
      <Conversation />
      <ReplyBox />
    </DetailsAndHistory>
  </Show>
);
