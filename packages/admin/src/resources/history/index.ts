/** The staff history (`view_logentry`): every admin write, sign-in, sign-out and export. */
import HistoryIcon from '@mui/icons-material/History';
import { HistoryList } from './HistoryList';

export default { list: HistoryList, icon: HistoryIcon };
