import { EmptyState } from '../../components/ui/page';

/**
 * What non-Admins see instead of addons: the server answers 403 to them, since an addon's
 * destinations and delivery log are an operator's business.
 */
export function NeedsAdmin() {
  return (
    <EmptyState>
      <span data-testid="needs-admin">
        Addons and their deliveries need the Admin role. Ask an Admin to check or change them.
      </span>
    </EmptyState>
  );
}
