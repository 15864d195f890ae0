import * as Tabs from '@radix-ui/react-tabs';
import { PageHeader } from '../../components/ui/page';
import { ActionsTab } from './actions-tab';
import { AddonsTab } from './addons-tab';
import { SignalsTab } from './signals-tab';

/** Addons, signal endpoints and the actions signals trigger. */
export default function IntegrationsPage() {
  return (
    <>
      <PageHeader
        title="Integrations"
        subtitle="Send events out with addons; let other systems signal in and trigger actions."
      />
      <Tabs.Root defaultValue="addons">
        <Tabs.List className="tabs-list" aria-label="Integration sections">
          <Tabs.Trigger className="tabs-trigger" value="addons">
            Addons
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="signals">
            Signal endpoints
          </Tabs.Trigger>
          <Tabs.Trigger className="tabs-trigger" value="actions">
            Actions
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="addons">
          <AddonsTab />
        </Tabs.Content>
        <Tabs.Content value="signals">
          <SignalsTab />
        </Tabs.Content>
        <Tabs.Content value="actions">
          <ActionsTab />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
