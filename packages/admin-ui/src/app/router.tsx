import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, matchRoutes, Navigate, type RouteObject, RouterProvider } from 'react-router';
import { routerBasename } from '../api/mount';
import { Loading } from '../components/ui/page';
import { Layout } from './layout';
import { RouteError } from './route-error';

const page = (load: () => Promise<{ default: ComponentType }>) => {
  const Page = lazy(load);
  return {
    element: (
      <Suspense fallback={<Loading />}>
        <Page />
      </Suspense>
    ),
    errorElement: <RouteError />,
    handle: { load },
  };
};

const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/projects" replace /> },
      { path: 'projects', ...page(() => import('../features/projects/projects-page')) },
      { path: 'projects/:projectId', ...page(() => import('../features/projects/project-page')) },
      {
        path: 'projects/:projectId/settings',
        ...page(() => import('../features/projects/project-settings-page')),
      },
      {
        path: 'projects/:projectId/overview',
        ...page(() => import('../features/insights/project-overview-page')),
      },
      {
        path: 'projects/:projectId/features/:featureName',
        ...page(() => import('../features/flags/feature-page')),
      },
      {
        path: 'projects/:projectId/change-requests',
        ...page(() => import('../features/change-requests/project-change-requests-page')),
      },
      {
        path: 'projects/:projectId/change-requests/:id',
        ...page(() => import('../features/change-requests/change-request-page')),
      },
      {
        path: 'change-requests',
        ...page(() => import('../features/change-requests/change-requests-page')),
      },
      { path: 'segments', ...page(() => import('../features/segments/segments-page')) },
      { path: 'context', ...page(() => import('../features/context-fields/context-fields-page')) },
      { path: 'tag-types', ...page(() => import('../features/tag-types/tag-types-page')) },
      { path: 'environments', ...page(() => import('../features/environments/environments-page')) },
      { path: 'archive', ...page(() => import('../features/archive/archive-page')) },
      { path: 'events', ...page(() => import('../features/events/events-page')) },
      { path: 'playground', ...page(() => import('../features/playground/playground-page')) },
      { path: 'access', ...page(() => import('../features/access/access-page')) },
      { path: 'integrations', ...page(() => import('../features/integrations/integrations-page')) },
      {
        path: 'integrations/addons/:addonId',
        ...page(() => import('../features/integrations/addon-page')),
      },
      { path: 'insights', ...page(() => import('../features/insights/insights-page')) },
      { path: 'profile', ...page(() => import('../features/profile/profile-page')) },
      { path: '*', ...page(() => import('./not-found-page')) },
    ],
  },
];

// The page opened first starts loading with this module rather than once the router has rendered
// (a round trip later): the same import, so the page's `lazy` finds it loading or loaded.
for (const match of matchRoutes(routes, window.location, routerBasename()) ?? [])
  void (match.route.handle as { load?: () => Promise<unknown> } | undefined)?.load?.();

const router = createBrowserRouter(routes, { basename: routerBasename() });

/** The routed app; every page is its own chunk with its own error boundary. */
export default function AppRouter() {
  return <RouterProvider router={router} />;
}
