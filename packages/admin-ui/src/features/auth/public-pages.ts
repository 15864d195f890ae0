import { routerBasename } from '../../api/mount';

/** The pages anyone may open without a session: what the reference's e-mailed links lead to. */
export type PublicPage = 'new-user' | 'reset-password' | 'signup';

const PUBLIC_PAGES: readonly PublicPage[] = ['new-user', 'reset-password', 'signup'];

/** Which public page the address is, if any (the path after the app's base). */
export function publicPageAt(pathname: string): PublicPage | null {
  const base = routerBasename().replace(/\/$/, '');
  const rest = pathname.startsWith(base) ? pathname.slice(base.length) : pathname;
  const page = rest.replace(/^\/+|\/+$/g, '');
  return PUBLIC_PAGES.find((p) => p === page) ?? null;
}

/** After a public page signed the user in: into the app, with a fresh load of the session. */
export function enterApp(): void {
  window.location.assign(new URL('projects', document.baseURI).href);
}
