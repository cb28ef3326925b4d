/** Payment events (`view_paymentevent`): the audit of every order, read-only. */
import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import { PaymentEventList } from './PaymentEventList';

export default { list: PaymentEventList, icon: ReceiptLongIcon };
