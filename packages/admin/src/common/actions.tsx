/** Buttons and toolbars shared by the screens: save-only forms, guarded delete, a staff action behind a confirmation. */
import { Tooltip } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { type ReactElement, useState } from 'react';
import {
  Button,
  type ButtonProps,
  Confirm,
  DeleteButton,
  SaveButton,
  Toolbar,
  useNotify,
  useRecordContext,
  useTranslate,
} from 'react-admin';

/** A form toolbar with Save only (the resource cannot be deleted, or deleting is on its show page). */
export const SaveOnlyToolbar = () => (
  <Toolbar>
    <SaveButton />
  </Toolbar>
);

/**
 * Delete (after a confirmation), unless `kept(record)`: then a note says why not (`reason`, a translation key), as
 * the API would refuse it (a plan with orders, a code that was used).
 */
export function DeleteUnless({ kept, reason }: { kept: (record: any) => boolean; reason: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  if (!record) return null;
  if (kept(record)) {
    return (
      <Tooltip title={translate(reason)}>
        <span data-testid="delete-kept" style={{ fontSize: '0.8125rem', opacity: 0.7, padding: '4px 5px' }}>
          {translate('app.not_deletable')}
        </span>
      </Tooltip>
    );
  }
  return <DeleteButton mutationMode="pessimistic" />;
}

/**
 * A staff action behind a confirmation: the button opens react-admin's Confirm (`title`, `content`: translation keys,
 * with their options); confirming runs `run`, then `onDone` (e.g. a notification and a refresh); a refusal is notified
 * with the API's words. While it runs, the button and the dialog wait.
 */
export function ConfirmedAction(props: {
  label: string;
  icon: ReactElement;
  color?: ButtonProps['color'];
  title: string;
  titleOptions?: Record<string, unknown>;
  content: string;
  contentOptions?: Record<string, unknown>;
  run: () => Promise<unknown>;
  onDone: () => void;
}) {
  const [open, setOpen] = useState(false);
  const notify = useNotify();
  const { mutate, isPending } = useMutation({
    mutationFn: props.run,
    onSuccess: props.onDone,
    onError: (error: Error) => notify(error.message, { type: 'error' }),
    onSettled: () => setOpen(false),
  });
  return (
    <>
      <Button label={props.label} color={props.color} onClick={() => setOpen(true)} disabled={isPending}>
        {props.icon}
      </Button>
      <Confirm
        isOpen={open}
        loading={isPending}
        title={props.title}
        titleTranslateOptions={props.titleOptions}
        content={props.content}
        translateOptions={props.contentOptions}
        onConfirm={() => mutate()}
        onClose={() => setOpen(false)}
      />
    </>
  );
}
