import { currentUserQueryOptions } from '../features/auth/api/session';
import { publicPageAt } from '../features/auth/public-pages';
import { prefetchProjectPage } from '../features/projects/project-page-queries';
import { loadOpeningCode, pageAt } from './app-code';
import { forgetEarlyAnswers } from './early-answers';
import type { PagePath } from './pages';
import { queryClient } from './query-client';

/** The data a page asks for as it opens, for the pages whose first answer is worth starting early. */
const EARLY_DATA: Partial<Record<PagePath, (params: Record<string, string>) => void>> = {
  'projects/:projectId': ({ projectId }) => {
    if (projectId) prefetchProjectPage(queryClient, projectId);
  },
};

/**
 * Run as the entry's first import, before React and the app's modules are evaluated: the session, the opened page's chunk and that page's first
 * data are asked for at once, in parallel, rather than one after the other as each component that
 * asks mounts (session → router chunk → page chunk → page data). Public pages need none of it.
 */
function startEarly(pathname: string): void {
  if (publicPageAt(pathname)) return;
  void queryClient.prefetchQuery(currentUserQueryOptions());
  loadOpeningCode(pathname);
  const page = pageAt(pathname);
  if (page) EARLY_DATA[page.path]?.(page.params);
  // The requests above have taken the answers `early-answers.ts` started for them (the API client
  // sends within this task); any other is dropped rather than served later, stale.
  setTimeout(forgetEarlyAnswers, 0);
}

startEarly(window.location.pathname);
