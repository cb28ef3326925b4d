/** Learners' sessions (superuser): read-only, revoke after a confirmation (the learner is signed out). */
import { DataTable, DeleteButton, TextInput } from 'react-admin';
import { Link } from 'react-router-dom';
import { AdminList, Col } from '../../common/list';
import { columns, id, time } from '../../common/specs';

const sessionFilters = [<TextInput key="userId" source="userId" alwaysOn />];

export const SessionList = () => (
  <AdminList filters={sessionFilters}>
    <DataTable bulkActionButtons={false} rowClick={false}>
      <Col source="userPublicId" render={(r: any) => <Link to={`/users/${r.userId}/show`}>{r.userPublicId ?? r.userId}</Link>} />
      {columns(
        id('userId'),
        time('createdAt'),
        time('expiresAt'),
        <Col source="id" render={(r: any) => <bdi style={{ fontSize: '0.75rem' }}>{r.id}</bdi>} />,
      )}
      <Col
        label={false}
        render={(r: any) => (
          <DeleteButton
            mutationMode="pessimistic"
            label="app.sessions.revoke"
            successMessage="app.sessions.revoked"
            confirmTitle="app.sessions.revoke_title"
            confirmContent="app.sessions.revoke_confirm"
            translateOptions={{ user: r.userPublicId ?? r.userId }}
            redirect={false}
          />
        )}
      />
    </DataTable>
  </AdminList>
);
