/** OTP records (superuser): per phone, read-only; never a code. */
import { DataTable, TextInput } from 'react-admin';
import { AdminList, Col } from '../../common/list';
import { bool, columns, num, phoneRow, status, time } from '../../common/specs';

const otpFilters = [<TextInput key="phone" source="phone" alwaysOn />];

export const OtpRecordList = () => (
  <AdminList filters={otpFilters} mobile={phoneRow(false, 'phone', time('sentAt'), status('state', 'otp'))}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="phone" render={(r: any) => <bdi>{r.phone}</bdi>} />
      {columns(bool('codeSent'), num('attempts'), time('sentAt'), time('expiresAt'), status('state', 'otp'))}
    </DataTable>
  </AdminList>
);
