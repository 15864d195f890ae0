import { useQuery } from '@tanstack/react-query';
import { Badge, Card, PageHeader } from '../../components/ui/page';
import { useCurrentUser } from '../auth/permissions';
import { rolesQueryOptions } from './api/roles';
import { ChangePasswordCard } from './change-password-card';
import { PersonalTokensCard } from './personal-tokens-card';

/** The signed-in user's own account: who they are, their password and personal access tokens. */
export default function ProfilePage() {
  const user = useCurrentUser();
  const roles = useQuery(rolesQueryOptions());
  const role = roles.data?.roles.find((r) => r.id === user.rootRole)?.name ?? String(user.rootRole);
  return (
    <>
      <PageHeader title="Profile" subtitle="Your account, your password and your personal access tokens." />
      <div className="grid grid-2">
        <div>
          <Card title="Account">
            <table aria-label="Account">
              <tbody>
                <tr>
                  <th scope="row">Name</th>
                  <td>{user.name ?? '—'}</td>
                </tr>
                <tr>
                  <th scope="row">E-mail</th>
                  <td>{user.email ?? '—'}</td>
                </tr>
                {user.username ? (
                  <tr>
                    <th scope="row">Username</th>
                    <td>{user.username}</td>
                  </tr>
                ) : null}
                <tr>
                  <th scope="row">Root role</th>
                  <td>
                    <Badge tone="info">{role}</Badge>
                  </td>
                </tr>
              </tbody>
            </table>
          </Card>
          <ChangePasswordCard />
        </div>
        <PersonalTokensCard />
      </div>
    </>
  );
}
