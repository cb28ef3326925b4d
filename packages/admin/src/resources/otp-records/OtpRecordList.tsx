/** OTP records (superuser): per phone, read-only; never a code. */
import { BooleanField, DataTable, TextField, TextInput } from 'react-admin';
import { DateTime, Num, StatusChip } from '../../common/fields';
import { AdminList, Col } from '../../common/list';

const otpFilters = [<TextInput key="phone" source="phone" alwaysOn />];

export const OtpRecordList = () => (
  <AdminList
    filters={otpFilters}
    mobile={{
      primaryText: <TextField source="phone" />,
      secondaryText: <DateTime source="sentAt" />,
      tertiaryText: <StatusChip source="state" group="otp" />,
      rowClick: false,
    }}
  >
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="phone" render={(r: any) => <bdi>{r.phone}</bdi>} />
      <Col source="codeSent" field={BooleanField} />
      <Col source="attempts" field={Num} />
      <Col source="sentAt" field={DateTime} />
      <Col source="expiresAt" field={DateTime} />
      <Col source="state" field={(p: any) => <StatusChip {...p} group="otp" />} />
    </DataTable>
  </AdminList>
);
