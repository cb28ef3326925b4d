/** The tutor's feedback (`view_tutorfeedback`). */
import PsychologyIcon from '@mui/icons-material/Psychology';
import { TutorFeedbackList } from './TutorFeedbackList';

export default { list: TutorFeedbackList, icon: PsychologyIcon };
