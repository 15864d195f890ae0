import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { loadedRouter, loadRouter, openingCode } from '../../app/app-code';
import { ErrorNotice, Loading } from '../../components/ui/page';
import { createCan, SessionContext } from './permissions';
import { publicPageAt } from './public-pages';
import { useSession } from './use-session';

const LoginPage = lazy(() => import('./login-page'));
const SetPasswordPage = lazy(() => import('./set-password-page'));
const SignupPage = lazy(() => import('./signup-page'));
const LazyRouter = lazy(loadRouter);

/** The set-password and sign-up pages, which need no session; the app behind the session otherwise. */
export function AuthGate() {
  const publicPage = publicPageAt(window.location.pathname);
  if (publicPage)
    return (
      <Suspense fallback={<Loading />}>
        {publicPage === 'signup' ? <SignupPage /> : <SetPasswordPage kind={publicPage} />}
      </Suspense>
    );
  return <SessionGate />;
}

/** Shows the login page when the API says 401, the app otherwise. */
function SessionGate() {
  const session = useSession();
  const signedIn = session.data?.kind === 'signed-in' ? session.data.session : null;
  const value = useMemo(
    () => (signedIn ? { session: signedIn, can: createCan(signedIn) } : null),
    [signedIn],
  );
  // The app's code was started with the session (`early-start.ts`): waiting for both here, rather than
  // suspending on the code once the session answers, shows the first page with no fallback in between.
  const codeLoaded = useSettled(openingCode);
  if (session.isPending || (!codeLoaded && value)) return <Loading label="Starting Flagstaff…" />;
  const AppRouter = loadedRouter() ?? LazyRouter;
  // A failed refetch keeps the app on screen (the connection banner says the server is gone).
  if (session.isError && !session.data)
    return (
      <div className="center-page">
        <ErrorNotice error={session.error} />
      </div>
    );
  return (
    <Suspense fallback={<Loading />}>
      {value ? (
        <SessionContext.Provider value={value}>
          <AppRouter />
        </SessionContext.Provider>
      ) : (
        <LoginPage />
      )}
    </Suspense>
  );
}

/** Whether the promise `start` answers has settled (it is asked for once). */
function useSettled(start: () => Promise<unknown>): boolean {
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    let live = true;
    const done = () => {
      if (live) setSettled(true);
    };
    start().then(done, done);
    return () => {
      live = false;
    };
  }, [start]);
  return settled;
}
