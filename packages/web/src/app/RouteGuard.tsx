import { useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { session } from '../api/session';
import { AuthorizeByToken } from './AuthorizeByToken';
import { useBrand } from './brand';
import { decide } from './guard';
import { titleOf } from './routes';
import { endSession, useUser } from './user';

/** Forgets the current session, then goes on (a token in the query string forces a logout). */
function LogoutAndGo({ to }: { to: string }) {
  const navigate = useNavigate();
  useEffect(() => {
    endSession();
    void navigate(to, { replace: true });
  }, [to, navigate]);
  return null;
}

/** Sets "<page title> - <brand name>" after every navigation. */
function useDocumentTitle(pathname: string) {
  const brand = useBrand();
  useEffect(() => {
    const title = titleOf(pathname);
    document.title = title ? `${title} - ${brand.name}` : brand.name;
  }, [pathname, brand.name]);
}

/** The route guard of spec 1 §2.2, around every route. */
export function RouteGuard() {
  const location = useLocation();
  useUser(); // re-decide when the session starts or ends
  useDocumentTitle(location.pathname);
  const decision = decide(location.pathname, location.search, Boolean(session.token()));
  if (decision.kind === 'redirect') {
    return decision.logout ? <LogoutAndGo to={decision.to} /> : <Navigate to={decision.to} replace />;
  }
  if (decision.kind === 'authorize') {
    return (
      <>
        <Outlet />
        <AuthorizeByToken token={decision.token} />
      </>
    );
  }
  return <Outlet />;
}
