import type { ComponentType } from 'react';

/** A page's chunk: loaded when its route is first matched. */
export type PageLoader = () => Promise<{ default: ComponentType }>;

/**
 * The app's pages by route path (relative to the app's base, `:name` a parameter). Kept apart from
 * the router, and free of React Router, so the entry can start the opened page's chunk (and its data,
 * `early-start.ts`) before the router's own chunk has even arrived.
 */
export const PAGES = {
  projects: () => import('../features/projects/projects-page'),
  'projects/:projectId': () => import('../features/projects/project-page'),
  'projects/:projectId/settings': () => import('../features/projects/project-settings-page'),
  'projects/:projectId/overview': () => import('../features/insights/project-overview-page'),
  'projects/:projectId/features/:featureName': () => import('../features/flags/feature-page'),
  'projects/:projectId/change-requests': () =>
    import('../features/change-requests/project-change-requests-page'),
  'projects/:projectId/change-requests/:id': () => import('../features/change-requests/change-request-page'),
  'change-requests': () => import('../features/change-requests/change-requests-page'),
  segments: () => import('../features/segments/segments-page'),
  context: () => import('../features/context-fields/context-fields-page'),
  'tag-types': () => import('../features/tag-types/tag-types-page'),
  environments: () => import('../features/environments/environments-page'),
  archive: () => import('../features/archive/archive-page'),
  events: () => import('../features/events/events-page'),
  playground: () => import('../features/playground/playground-page'),
  access: () => import('../features/access/access-page'),
  integrations: () => import('../features/integrations/integrations-page'),
  'integrations/addons/:addonId': () => import('../features/integrations/addon-page'),
  insights: () => import('../features/insights/insights-page'),
  profile: () => import('../features/profile/profile-page'),
  '*': () => import('./not-found-page'),
} satisfies Record<string, PageLoader>;

export type PagePath = keyof typeof PAGES;

/** The page an address within the app is (`projects/default`), with its parameters; null for none. */
export function matchPage(relative: string): { path: PagePath; params: Record<string, string> } | null {
  const segments = relative.split('/').filter(Boolean);
  for (const path of Object.keys(PAGES) as PagePath[]) {
    if (path === '*') continue;
    const pattern = path.split('/');
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      const segment = segments[i] ?? '';
      if (!part.startsWith(':')) return part === segment;
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return false;
      }
      return true;
    });
    if (matches) return { path, params };
  }
  return null;
}

const loaded = new Map<PagePath, ComponentType>();

/** Loads a page's chunk, remembering its component so that a render after it needs no Suspense. */
export const loadPage = (path: PagePath): Promise<{ default: ComponentType }> =>
  PAGES[path]().then((module) => {
    loaded.set(path, module.default);
    return module;
  });

/** The page's component if its chunk has loaded. */
export const loadedPage = (path: PagePath): ComponentType | undefined => loaded.get(path);

const preloading = new Set<PagePath>();

/**
 * Loads the code of the page a user likely opens next once the browser is idle, so that opening it
 * waits for its data only (and renders without a Suspense fallback). A load that fails is forgotten,
 * and the page reports it when it is opened.
 */
export function preloadPageWhenIdle(path: PagePath): void {
  if (loaded.has(path) || preloading.has(path)) return;
  preloading.add(path);
  const start = () => {
    loadPage(path).catch(() => preloading.delete(path));
  };
  if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}
