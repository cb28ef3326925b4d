/**
 * Bulk actions (Django admin's changelist actions; `POST /api/admin/<resource>/bulk { ids, action }`): the selected rows'
 * toolbar offers each action the API description lists for the resource; after a confirmation the action runs on each
 * row on its own and a dialog shows each row's result (done, already so, or why it failed), while the rest are applied.
 */
import { Dialog, DialogActions, DialogContent, DialogTitle, List, ListItem, ListItemText, Button as MuiButton } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import {
  Button,
  Confirm,
  useCanAccess,
  useDataProvider,
  useListContext,
  useLocaleState,
  useNotify,
  useRefresh,
  useResourceContext,
  useTranslate,
  useUnselectAll,
} from 'react-admin';
import { bodyChoices, type OperationKey, operationOf } from '../api/contract';
import type { AdminDataProvider, BulkResult } from '../api/dataProvider';
import { formatNumber } from '../i18n';

/** The words of a row's result. */
function resultText(result: BulkResult['results'][number], translate: ReturnType<typeof useTranslate>): string {
  if (result.ok) return translate(result.changed ? 'app.bulk.ok_changed' : 'app.bulk.ok_unchanged');
  return translate(`choices.bulkError.${result.code}`, { _: result.detail });
}

/** One action's button: asks, runs, then shows the results. `labels`: the translation group of its name. */
function BulkActionButton({ action, labels }: { action: string; labels: string }) {
  const resource = useResourceContext() as string;
  const { selectedIds } = useListContext();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const notify = useNotify();
  const refresh = useRefresh();
  const unselectAll = useUnselectAll(resource);
  const dataProvider = useDataProvider<AdminDataProvider>();
  const [asking, setAsking] = useState(false);
  const [results, setResults] = useState<BulkResult | null>(null);
  const run = useMutation({
    mutationFn: () => dataProvider.bulk(resource, selectedIds, action),
    onSuccess: (answer) => {
      setResults(answer);
      notify('app.bulk.done', { type: answer.summary.failed ? 'warning' : 'info', messageArgs: answer.summary });
      unselectAll();
      refresh();
    },
    onError: (error: Error) => notify(error.message, { type: 'error' }),
    onSettled: () => setAsking(false),
  });
  const label = `${labels}.${action}`;
  return (
    <>
      <Button label={label} onClick={() => setAsking(true)} disabled={run.isPending} data-testid={`bulk-${action}`} />
      <Confirm
        isOpen={asking}
        loading={run.isPending}
        title={label}
        content="ra.message.bulk_update_content"
        translateOptions={{ smart_count: selectedIds.length, name: translate(`resources.${resource}.name`, { smart_count: 2 }) }}
        onConfirm={() => run.mutate()}
        onClose={() => setAsking(false)}
      />
      <Dialog open={results !== null} onClose={() => setResults(null)} data-testid="bulk-results">
        <DialogTitle>{translate('app.bulk.results')}</DialogTitle>
        <DialogContent>
          <List dense>
            {results?.results.map((result) => (
              <ListItem key={String(result.id)} data-testid={`bulk-result-${result.id}`} data-ok={String(result.ok)}>
                <ListItemText
                  primary={<bdi>{typeof result.id === 'number' ? formatNumber(result.id, locale, false) : String(result.id)}</bdi>}
                  secondary={resultText(result, translate)}
                />
              </ListItem>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <MuiButton onClick={() => setResults(null)}>{translate('app.bulk.close')}</MuiButton>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * The bulk actions of `resource` for the selected rows, or `false` (no checkboxes) when the staff member may not use
 * them or the API has none. `labels`: the translation group of the actions' names (default `app.bulk.action`).
 */
export function useBulkActions(resource: string, labels = 'app.bulk.action') {
  const { canAccess } = useCanAccess({ resource, action: 'bulk' });
  const operation = operationOf(resource, 'bulk');
  if (!canAccess || !operation) return false;
  const actions = bodyChoices(operation.key as OperationKey, 'action');
  return (
    <>
      {actions.map((action) => (
        <BulkActionButton key={action} action={action} labels={labels} />
      ))}
    </>
  );
}
