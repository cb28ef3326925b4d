/** OTP records (superuser only). */
import SmsIcon from '@mui/icons-material/Sms';
import { OtpRecordList } from './OtpRecordList';

export default { list: OtpRecordList, icon: SmsIcon };
