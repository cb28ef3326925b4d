/** OTP records (superuser): per phone, read-only; never a code. */
import { DataTable, TextInput } from 'react-admin';
import { AdminList } from '../../common/list';
import { bool, columns, num, phone, phoneRow, status, time } from '../../common/specs';

const otpFilters = [<TextInput key="phone" source="phone" alwaysOn />];

export const OtpRecordList = () => (
  <AdminList filters={otpFilters} mobile={phoneRow(false, phone('phone'), time('sentAt'), status('state', 'otp'))}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      {columns(phone('phone'), bool('codeSent'), num('attempts'), time('sentAt'), time('expiresAt'), status('state', 'otp'))}
    </DataTable>
  </AdminList>
);
