import * as Tabs from '@radix-ui/react-tabs';
import { PageHeader } from '../../components/ui/page';
import { ApiTokensTab } from './api-tokens-tab';
import { GroupsTab } from './groups-tab';
import { InviteLinksTab } from './invite-links-tab';
import { UsersTab } from './users-tab';

/** Who and what may use Flagstaff: API tokens, invite links, users and roles, groups. */
export default function AccessPage() {
  return (
    <>
      <PageHeader title="Access" subtitle="API tokens for SDKs, invite links, users, roles and groups." />
      <Tabs.Root defaultValue="tokens">
        <Tabs.List className="tabs-list" aria-label="Access sections">
          <Tabs.Trigger className="tabs-trigger" value="tokens">
            API tokens
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="invites">
            Invite links
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="users">
            Users &amp; roles
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="groups">
            Groups
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="tokens">
          <ApiTokensTab />
        </Tabs.Content>
        <Tabs.Content value="invites">
          <InviteLinksTab />
        </Tabs.Content>
        <Tabs.Content value="users">
          <UsersTab />
        </Tabs.Content>
        <Tabs.Content value="groups">
          <GroupsTab />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
