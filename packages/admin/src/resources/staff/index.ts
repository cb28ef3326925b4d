/** Staff accounts (superuser only): list, page, create, change, end sessions. */
import BadgeIcon from '@mui/icons-material/Badge';
import { StaffCreate, StaffEdit } from './StaffForms';
import { StaffList } from './StaffList';
import { StaffShow } from './StaffShow';

export default {
  list: StaffList,
  show: StaffShow,
  edit: StaffEdit,
  create: StaffCreate,
  icon: BadgeIcon,
  recordRepresentation: 'username',
};
