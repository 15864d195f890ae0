// An existing Express app that embeds Flagstaff: the admin/client API lives under /flags, the app's
// own users (identified here by a session header) manage flags without API tokens, and the app's
// routes evaluate flags in process — no HTTP round trip, no SDK.
import { type Flagstaff, type Principal, SYSTEM } from '@flagstaff/core';
import { flagstaffRouter } from '@flagstaff/http-express';
import express, { type Request } from 'express';

/** The host app's own sign-in: here a header naming a user the app created. */
async function currentUser(flagstaff: Flagstaff, req: Request): Promise<Principal | null> {
  const session = req.header('x-session-user');
  if (!session) return null;
  const user = (await flagstaff.users.list(SYSTEM)).find((u) => u.email === session);
  return user ? flagstaff.access.userPrincipal(user.id) : null;
}

/** Builds the host app around a Flagstaff instance. */
export function createApp(flagstaff: Flagstaff, environment = 'production'): express.Express {
  const app = express();
  app.use('/flags', flagstaffRouter(flagstaff, { authenticate: (req) => currentUser(flagstaff, req) }));

  app.get('/checkout', async (req, res) => {
    // One compiled snapshot per request; it is rebuilt only when the flag configuration changes.
    const flags = await flagstaff.client.evaluator(environment);
    const context = { userId: req.header('x-user-id') ?? undefined, appName: 'shop' };
    const variant = flags.getVariant('checkout-button', context);
    res.json({
      flow: flags.isEnabled('new-checkout', context) ? 'new' : 'classic',
      button: variant.enabled ? variant.name : 'default',
    });
  });
  return app;
}

/** Creates the app's first administrator, as a host app would when it provisions a user. */
export async function addAdmin(flagstaff: Flagstaff, email: string): Promise<void> {
  await flagstaff.users.create(SYSTEM, { email, rootRole: 'Admin' });
}
