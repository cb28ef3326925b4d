/**
 * The two staff actions on an order, which need `change_order`: cancel a pending order (after a confirm dialog) and
 * refund a paid one (through the confirmation page, `RefundPage.tsx`). Without the permission neither button is shown.
 */
import CancelIcon from '@mui/icons-material/Cancel';
import UndoIcon from '@mui/icons-material/Undo';
import { useQueryClient } from '@tanstack/react-query';
import { Button, useCanAccess, useDataProvider, useNotify, useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';
import type { AdminDataProvider } from '../../api/dataProvider';
import { ConfirmedAction } from '../../common/actions';

/** The refund button: only for a paid order, only with change_order; leads to the confirmation page. */
export function RefundButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'refund' });
  if (record?.status !== 'paid' || !canAccess) return null;
  return (
    <Button component={Link} to={`/orders/${record.id}/refund`} label="app.orders.refund" color="warning">
      <UndoIcon />
    </Button>
  );
}

/** The cancel button: only for a pending order, only with change_order; asks before it cancels. */
export function CancelOrderButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'orders', action: 'cancel' });
  const dataProvider = useDataProvider<AdminDataProvider>();
  const notify = useNotify();
  const queryClient = useQueryClient();
  if (record?.status !== 'pending' || !canAccess) return null;
  return (
    <ConfirmedAction
      label="app.orders.cancel"
      color="error"
      icon={<CancelIcon />}
      title="app.orders.cancel_confirm_title"
      titleOptions={{ id: record.id }}
      content="app.orders.cancel_confirm"
      run={() => dataProvider.cancelOrder(record.id)}
      onDone={() => {
        notify('app.orders.cancelled', { type: 'info' });
        void queryClient.invalidateQueries({ queryKey: ['orders'] });
      }}
    />
  );
}
