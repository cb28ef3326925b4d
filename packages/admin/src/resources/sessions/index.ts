/** Learners' sessions (superuser only). */
import VpnKeyIcon from '@mui/icons-material/VpnKey';
import { SessionList } from './SessionList';

export default { list: SessionList, icon: VpnKeyIcon };
