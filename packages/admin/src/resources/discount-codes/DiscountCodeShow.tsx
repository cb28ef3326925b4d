/**
 * A discount code's page: its fields, the plans it is for, and its actions: advertise it as an offer (`change_offer`),
 * edit (superuser), delete (`delete_discountcode`; refused with 409 `discount_code_used` once a code was used: the page
 * says so instead of offering Delete).
 */
import CampaignIcon from '@mui/icons-material/Campaign';
import {
  Button,
  ChipField,
  EditButton,
  ListButton,
  ReferenceArrayField,
  Show,
  SingleFieldList,
  TopToolbar,
  useCanAccess,
  useNotify,
  useRecordContext,
  useRefresh,
  useTranslate,
  useUpdate,
} from 'react-admin';
import { DeleteUnless } from '../../common/actions';
import { bool, fields, num, text, time } from '../../common/specs';
import { DetailsAndHistory } from '../history/RecordHistory';

/**
 * Advertise a code that is not yet (`PATCH /api/admin/offers/{code}` `{ advertised: true }`, `change_offer`): so a
 * staff member who may change offers but not codes can make any code an offer.
 */
function AdvertiseButton() {
  const record = useRecordContext();
  const { canAccess } = useCanAccess({ resource: 'offers', action: 'edit' });
  const notify = useNotify();
  const refresh = useRefresh();
  const [update, { isPending }] = useUpdate();
  if (!record || record.advertised || !canAccess) return null;
  const advertise = () =>
    update(
      'offers',
      { id: record.id, data: { advertised: true }, previousData: { id: record.id, advertised: false } },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => {
          notify('app.discounts.advertised', { type: 'info' });
          refresh();
        },
        onError: (error) => notify((error as Error).message, { type: 'error' }),
      },
    );
  return (
    <Button label="app.discounts.advertise" onClick={advertise} disabled={isPending}>
      <CampaignIcon />
    </Button>
  );
}

const CodeShowActions = () => (
  <TopToolbar>
    <ListButton />
    <AdvertiseButton />
    <EditButton />
    <DeleteUnless kept={(r) => r.uses > 0} reason="app.errors.discount_code_used" />
  </TopToolbar>
);

export const DiscountCodeShow = () => (
  <Show actions={<CodeShowActions />}>
    <DetailsAndHistory model="discountcode">
      {fields(
        text('code'),
        text('title'),
        num('percent'),
        time('validFrom', { emptyText: '—' }),
        time('validUntil', { emptyText: '—' }),
        num('maxUses', { emptyText: '∞' }),
        num('perUserLimit'),
      )}
      <PlanNames source="planIds" />
      {fields(bool('advertised'), bool('active'), num('uses'))}
    </DetailsAndHistory>
  </Show>
);

/** The plans a code is for, by title (by id without `view_plan`); none means every plan. */
export function PlanNames(_props: { source: string; label?: string }) {
  const record = useRecordContext();
  const translate = useTranslate();
  const { canAccess } = useCanAccess({ resource: 'plans', action: 'list' });
  if (!record?.planIds?.length) return <>{translate('app.discounts.every_plan')}</>;
  if (!canAccess) return <>{record.planIds.join('، ')}</>;
  return (
    <ReferenceArrayField source="planIds" reference="plans">
      <SingleFieldList linkType={false}>
        <ChipField source="title" size="small" />
      </SingleFieldList>
    </ReferenceArrayField>
  );
}
