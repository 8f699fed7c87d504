import { lazy, useEffect, useMemo, type ReactNode } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { session } from '../api/session';
import { PageLoading } from '../components/PageLoading';
import { AuthorizeByToken } from './AuthorizeByToken';
import { useBrand } from '../session/brand';
import { decide, mayVisit, type PageAccess } from '../session/guard';
import { titleOf } from './routes';
import { endSession, useUser } from '../session/user';

const ForbiddenPage = lazy(() => import('../features/errors/ForbiddenPage'));

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
  useDocumentTitle(location.pathname);
  // Decided once per navigation, like a router's before-each hook: whoever ends or starts a session
  // (log out, login, authorisation) navigates next, and that navigation is judged with the new state.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const decision = useMemo(() => decide(location.pathname, location.search, Boolean(session.token())), [location.key]);
  if (decision.kind === 'redirect') {
    return decision.logout ? <LogoutAndGo to={decision.to} /> : <Navigate to={decision.to} replace />;
  }
  // Only the overlay: no layout underneath may load the user with the token being checked.
  if (decision.kind === 'authorize') return <AuthorizeByToken token={decision.token} />;
  return <Outlet />;
}

/**
 * A page's own guard (the route table's `access`): the page, or the 403 page for a user who may not
 * see it. The page is not rendered, so it makes no call, until the user is known (the layout loads it).
 */
export function PageGuard({ access, children }: { access?: PageAccess; children: ReactNode }) {
  const user = useUser();
  if (!access) return children;
  if (!user) return <PageLoading />;
  return mayVisit(access, user) ? children : <ForbiddenPage />;
}
