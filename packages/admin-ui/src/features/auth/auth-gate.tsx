import { lazy, Suspense, useMemo } from 'react';
import { ErrorNotice, Loading } from '../../components/ui/page';
import { createCan, SessionContext } from './permissions';
import { publicPageAt } from './public-pages';
import { useSession } from './use-session';

const LoginPage = lazy(() => import('./login-page'));
const SetPasswordPage = lazy(() => import('./set-password-page'));
const SignupPage = lazy(() => import('./signup-page'));
const loadRouter = () => import('../../app/router');
const AppRouter = lazy(loadRouter);
// The app's code loads while the session is asked for, not after it answers (public pages need none).
if (!publicPageAt(window.location.pathname)) void loadRouter();

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
  if (session.isPending) return <Loading label="Starting Flagstaff…" />;
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
