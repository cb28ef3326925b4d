/** The tutor's usage per Tehran day (`view_tutorusage`). */
import TimelineIcon from '@mui/icons-material/Timeline';
import { TutorUsageList } from './TutorUsageList';

export default { list: TutorUsageList, icon: TimelineIcon };
