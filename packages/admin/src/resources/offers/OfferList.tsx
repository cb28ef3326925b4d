/** Offers: the advertised discount codes, as the app's offers page shows them. */
import { DataTable, TextField } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { optionalFilters } from '../../common/filters';
import { AdminList } from '../../common/list';
import { bool, columns, num, time } from '../../common/specs';

export function OfferList() {
  const bulkActions = useBulkActions('offers', 'app.bulk.offers');
  return (
    <AdminList
      filters={optionalFilters('offers', ['q'])}
      mobile={{ primaryText: <TextField source="code" />, secondaryText: <TextField source="title" />, rowClick: 'show' }}
    >
      <DataTable rowClick="show" bulkActionButtons={bulkActions}>
        {columns('code', 'title', num('percent'), time('validUntil'), bool('usableNow'))}
      </DataTable>
    </AdminList>
  );
}
