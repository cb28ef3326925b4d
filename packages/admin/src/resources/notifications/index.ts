/** Notifications staff sent (`view_notification`) and sending one (`add_notification`). */
import NotificationsIcon from '@mui/icons-material/Notifications';
import { NotificationCreate } from './NotificationCreate';
import { NotificationList } from './NotificationList';

export default { list: NotificationList, create: NotificationCreate, icon: NotificationsIcon };
