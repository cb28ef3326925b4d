/**
 * An offer's page (`GET /api/admin/offers/{code}`, `view_offer`): the advertised code as the app's offers page shows
 * it, whether it is usable now, and its history. An offer's changes (its title, advertising it or withdrawing it) are
 * recorded on its code (history model `discountcode`), which a `view_offer` holder may read while the code is
 * advertised; so the tab shows the code's whole history, the changes made on the discount-code page included.
 */
import { EditButton, ListButton, Show, TopToolbar } from 'react-admin';
import { bool, fields, num, text, time } from '../../common/specs';
import { PlanNames } from '../discount-codes/DiscountCodeShow';
import { DetailsAndHistory } from '../history/RecordHistory';

const OfferShowActions = () => (
  <TopToolbar>
    <ListButton />
    <EditButton />
  </TopToolbar>
);

export const OfferShow = () => (
  <Show actions={<OfferShowActions />}>
    <DetailsAndHistory model="discountcode">
      {fields(text('code'), text('title'), num('percent'), time('validUntil', { emptyText: '—' }))}
      <PlanNames source="planIds" />
      {fields(bool('advertised'), bool('usableNow'))}
    </DetailsAndHistory>
  </Show>
);
