/** Support tickets (`view_ticket`; reply and close: `change_ticket`). */
import ForumIcon from '@mui/icons-material/Forum';
import { TicketList } from './TicketList';
import { TicketShow } from './TicketShow';

export default { list: TicketList, show: TicketShow, icon: ForumIcon, recordRepresentation: 'subject' };
