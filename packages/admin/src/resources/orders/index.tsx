/** Orders (`view_order`; cancel and refund: `change_order`): the list, each order's page and its refund page. */
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import { Route } from 'react-router-dom';
import { OrderList } from './OrderList';
import { OrderShow } from './OrderShow';
import { RefundPage } from './RefundPage';

export default {
  list: OrderList,
  show: OrderShow,
  icon: ShoppingCartIcon,
  recordRepresentation: (record: { id: unknown }) => `#${record.id}`,
  children: <Route path=":id/refund" element={<RefundPage />} />,
};
