/** Discount codes (`view_discountcode`, `delete_discountcode`; adding and changing one: superuser). */
import LocalOfferIcon from '@mui/icons-material/LocalOffer';
import { DiscountCodeCreate, DiscountCodeEdit } from './DiscountCodeForms';
import { DiscountCodeList } from './DiscountCodeList';
import { DiscountCodeShow } from './DiscountCodeShow';

export default {
  list: DiscountCodeList,
  show: DiscountCodeShow,
  edit: DiscountCodeEdit,
  create: DiscountCodeCreate,
  icon: LocalOfferIcon,
  recordRepresentation: 'code',
};
