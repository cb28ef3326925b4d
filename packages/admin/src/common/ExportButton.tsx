/**
 * The CSV export of a list (`GET /api/admin/<resource>/export.csv`, Django admin's changelist export without
 * react-admin's 1,000-row cap): a download of every row that matches the list's current filters, in its current order,
 * streamed by the API page by page (UTF-8 with BOM, so a spreadsheet opens Persian text). Shown to whoever may export
 * the list (its view permission); the export itself is a history entry.
 */
import DownloadIcon from '@mui/icons-material/Download';
import { Button, useCanAccess, useListContext, useResourceContext } from 'react-admin';
import { exportUrl } from '../api/dataProvider';

export function CsvExportButton() {
  const resource = useResourceContext() as string;
  const { filterValues, sort, total, isPending } = useListContext();
  const { canAccess } = useCanAccess({ resource, action: 'export' });
  const href = exportUrl(resource, filterValues, sort);
  if (!canAccess || !href) return null;
  return (
    <Button component="a" href={href} download label="ra.action.export" disabled={isPending || total === 0} data-testid="export-csv">
      <DownloadIcon />
    </Button>
  );
}
