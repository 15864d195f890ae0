import type { ComponentType } from 'react';
import { routerBasename } from '../api/mount';
import { loadPage, matchPage } from './pages';

let router: ComponentType | null = null;

/** Loads the router's chunk (every signed-in page needs it), remembering its component. */
export const loadRouter = (): Promise<{ default: ComponentType }> =>
  import('./router').then((module) => {
    router = module.default;
    return module;
  });

/** The router's component if its chunk has loaded. */
export const loadedRouter = (): ComponentType | null => router;

/** The page an address is, relative to the app's base. */
export const pageAt = (pathname: string) => {
  const base = routerBasename();
  return matchPage(pathname.startsWith(base) ? pathname.slice(base.length) : pathname);
};

let opening: Promise<unknown> = Promise.resolve();

/**
 * Starts the code the opened address needs, the router and that page, together; what it answers
 * settles once both have loaded or failed (a failure is the page's own error to show).
 */
export function loadOpeningCode(pathname: string): void {
  const page = pageAt(pathname);
  opening = Promise.allSettled([loadRouter(), page ? loadPage(page.path) : null]);
}

/** Settles once the opened address's code has loaded (or failed to). */
export const openingCode = (): Promise<unknown> => opening;
