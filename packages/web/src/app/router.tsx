import { Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LIMITS } from '@hublink/contract';
import { authHeaders, browser, urlOf } from '../api/client';
import { clearStaleToasts } from '../api/notify';
import { prefetch } from '../api/prefetch';
import { session } from '../api/session';
import { PageLoading } from '../components/PageLoading';
import { leaveStalePage } from './leaveStalePage';
import { lazy, preload } from './lazyPage';
import PublicLayout from './layouts/PublicLayout';
import { PageRouteProvider } from './PageRouteProvider';
import { PageGuard, RouteGuard } from './RouteGuard';
import { DEFAULT_PATH, HOME_PATH, NOT_FOUND_PATH } from './paths';
import { routeOf, ROUTES, type LayoutKind, type PageRoute } from './routes';

// Sign-in needs only the public layout: the console's frame, the placeholder and the error page load when shown.
const MainLayout = lazy(() => import('./layouts/MainLayout'));
const SecondPublicLayout = lazy(() => import('./layouts/SecondPublicLayout'));
const ComingSoon = lazy(() => import('../components/ComingSoon'));
const RouteError = lazy(() => import('./RouteError'));

/** A route's page (or the placeholder), told which route it is on, for those who may see it. */
function RoutePage({ route }: { route: PageRoute }) {
  const Page = route.page;
  return (
    <PageRouteProvider path={route.path}>
      <PageGuard access={route.access}>{Page ? <Page /> : <ComingSoon title={route.title} />}</PageGuard>
    </PageRouteProvider>
  );
}

const LAYOUTS: Record<LayoutKind, React.ComponentType> = {
  public: PublicLayout,
  second: SecondPublicLayout,
  main: MainLayout,
};

/** Turns a route table into React Router routes: guard → layout → page; '/' and unknown paths redirect. */
export function toRouteObjects(table: PageRoute[]): RouteObject[] {
  const layouts = (Object.keys(LAYOUTS) as LayoutKind[]).map((kind) => {
    const Layout = LAYOUTS[kind];
    return {
      element: (
        <Suspense fallback={<PageLoading />}>
          <Layout />
        </Suspense>
      ),
      children: table.filter((r) => r.layout === kind).map((r) => ({ path: r.path, element: <RoutePage route={r} /> })),
    };
  });
  return [
    {
      element: <RouteGuard />,
      errorElement: (
        <Suspense fallback={<PageLoading />}>
          <RouteError />
        </Suspense>
      ),
      children: [
        { path: HOME_PATH, element: <Navigate to={DEFAULT_PATH} replace /> },
        ...layouts,
        { path: '*', element: <Navigate to={NOT_FOUND_PATH} replace /> },
      ],
    },
  ];
}

export const appRoutes = toRouteObjects(ROUTES);

/** Clears the refusals of the page left behind whenever the page (not just its query) changes. */
export function clearToastsOnNavigation(router: { state: { location: { pathname: string } }; subscribe: (fn: (state: { location: { pathname: string } }) => void) => () => void }) {
  let pathname = router.state.location.pathname;
  return router.subscribe((state) => {
    if (state.location.pathname === pathname) return;
    pathname = state.location.pathname;
    clearStaleToasts();
  });
}

/**
 * When a route matches, before anything renders: its layout's and page's code load side by side (not
 * the page's only once the layout has rendered), and a signed-in page's first calls start
 * (api/prefetch), so the page's data is on its way while its code loads.
 */
export function warmRoute(location: { pathname: string; search: string }) {
  const route = routeOf(location.pathname);
  if (!route) return;
  preload(LAYOUTS[route.layout]);
  preload(route.page);
  // Not with a token about to be refreshed: the page's call would go with the new one.
  const fresh = session.token() && session.expiresAt() - Date.now() > LIMITS.tokenRefreshMarginSeconds * 1000;
  if (!route.firstCalls || !fresh) return;
  for (const call of route.firstCalls(new URLSearchParams(location.search))) {
    prefetch(urlOf(call, call.query), authHeaders(), LIMITS.requestTimeoutMs);
  }
}

/** Warms the route of every new address (warmRoute), the first one included. */
export function warmRoutes(router: { state: { location: { pathname: string; search: string } }; subscribe: (fn: (state: { location: { pathname: string; search: string } }) => void) => () => void }) {
  let last = router.state.location;
  warmRoute(last);
  return router.subscribe(({ location }) => {
    if (location.pathname === last.pathname && location.search === last.search) return;
    last = location;
    warmRoute(location);
  });
}

/** The console's router: a 204 anywhere leaves the stale page through it, and a move clears the old page's refusals. */
export function createAppRouter() {
  const router = createBrowserRouter(appRoutes);
  browser.back = () => leaveStalePage(router);
  clearToastsOnNavigation(router);
  warmRoutes(router);
  return router;
}
