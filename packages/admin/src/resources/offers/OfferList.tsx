/** Offers: the advertised discount codes, as the app's offers page shows them. */
import { BooleanField, DataTable, TextField } from 'react-admin';
import { useBulkActions } from '../../common/BulkActions';
import { DateTime, Num } from '../../common/fields';
import { optionalFilters } from '../../common/filters';
import { AdminList, Col } from '../../common/list';

export function OfferList() {
  const bulkActions = useBulkActions('offers', 'app.bulk.offers');
  return (
    <AdminList
      filters={optionalFilters('offers', ['q'])}
      mobile={{ primaryText: <TextField source="code" />, secondaryText: <TextField source="title" />, rowClick: 'edit' }}
    >
      <DataTable rowClick="edit" bulkActionButtons={bulkActions}>
        <Col source="code" />
        <Col source="title" />
        <Col source="percent" field={Num} />
        <Col source="validUntil" field={DateTime} />
        <Col source="usableNow" field={BooleanField} />
      </DataTable>
    </AdminList>
  );
}
