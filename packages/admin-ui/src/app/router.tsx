import { type ComponentType, lazy, Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject, RouterProvider } from 'react-router';
import { routerBasename } from '../api/mount';
import { Loading } from '../components/ui/page';
import { Layout } from './layout';
import { loadedPage, loadPage, PAGES, type PagePath } from './pages';
import { RouteError } from './route-error';

/**
 * A page: rendered at once when its chunk has loaded (the opened page, started by `early-start.ts`),
 * so that the first screen never shows a Suspense fallback that React then holds back the content of;
 * loaded through `lazy` otherwise.
 */
function PageAt({ path, Lazy }: { path: PagePath; Lazy: ComponentType }) {
  const Loaded = loadedPage(path);
  if (Loaded) return <Loaded />;
  return (
    <Suspense fallback={<Loading />}>
      <Lazy />
    </Suspense>
  );
}

const page = (path: PagePath): Omit<RouteObject, 'index'> => {
  const Lazy = lazy(() => loadPage(path));
  return { path, element: <PageAt path={path} Lazy={Lazy} />, errorElement: <RouteError /> };
};

const routes: RouteObject[] = [
  {
    element: <Layout />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/projects" replace /> },
      ...(Object.keys(PAGES) as PagePath[]).map(page),
    ],
  },
];

const router = createBrowserRouter(routes, { basename: routerBasename() });

/** The routed app; every page is its own chunk with its own error boundary. */
export default function AppRouter() {
  return <RouterProvider router={router} />;
}
