import { Suspense } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { LIMITS } from '@hublink/contract';
import { authHeaders, browser, urlOf } from '../api/client';
import { clearStaleToasts } from '../api/notify';
import { prefetch } from '../api/prefetch';
import { session } from '../api/session';
import { PageLoading } from '../components/PageLoading';
import { leaveStalePage } from './leaveStalePage';
import { lazy, preload, whenLoaded } from './lazyPage';
import PublicLayout from './layouts/PublicLayout';
import { PageRouteProvider } from './PageRouteProvider';
import { PageGuard, RouteGuard } from './RouteGuard';
import { DEFAULT_PATH, HOME_PATH, NOT_FOUND_PATH } from '../session/paths';
import { routeOf, ROUTES, type LayoutKind, type PageRoute } from './routes';

// Sign-in needs only the public layout: the console's frame, the placeholder and the error page load when shown.
// The frame's code counts as loaded with its user menu's, so a first page does not wait on a second loading state.
const MainLayout = lazy(() => import('./layouts/MainLayout').then(async (m) => (await m.frameLoaded(), m)));
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

/** Whether the session's token is far from its refresh: a call made now goes with it. */
function tokenSettled(): boolean {
  return session.token() !== null && session.expiresAt() - Date.now() > LIMITS.tokenRefreshMarginSeconds * 1000;
}

/**
 * When a route matches, before anything renders: its layout's and page's code load side by side (not
 * the page's only once the layout has rendered), and the page's first calls start (api/prefetch), so
 * its data is on its way while its code loads: a signed-in page's with a token that will not be
 * refreshed first, the sign-in page's captcha only when signed out (else the guard leaves the page).
 */
export function warmRoute(location: { pathname: string; search: string }, askedAlready: readonly string[] = []): string[] {
  const route = routeOf(location.pathname);
  if (!route) return [];
  preload(LAYOUTS[route.layout]);
  preload(route.page);
  const callsNow = route.layout === 'main' ? tokenSettled() : session.token() === null;
  if (!route.firstCalls || !callsNow) return [];
  const urls = route.firstCalls(new URLSearchParams(location.search)).map((call) => urlOf(call, call.query));
  for (const url of urls) if (!askedAlready.includes(url)) prefetch(url, authHeaders(), LIMITS.requestTimeoutMs);
  return urls;
}

/** Settles when the code of the route at this address (its layout and page) is here. */
export function routeLoaded(location: { pathname: string }): Promise<void> {
  const route = routeOf(location.pathname);
  if (!route) return Promise.resolve();
  return Promise.all([whenLoaded(LAYOUTS[route.layout]), whenLoaded(route.page)]).then(() => undefined);
}

/**
 * The console's first address: besides its route, the site's brand (GET /site/info, which every
 * layout shows) starts at once rather than when the first layout renders.
 */
function warmFirstAddress(location: { pathname: string; search: string }): string[] {
  if (session.token() === null || tokenSettled()) prefetch(urlOf({ path: '/site/info' }), authHeaders(), LIMITS.requestTimeoutMs);
  return warmRoute(location);
}

/**
 * Warms the route of every new address (warmRoute), the first one included. A new query on the same
 * page asks again only for calls it changes: the sign-in page's ?mode=ram is the same captcha call,
 * which the page makes itself when it switches forms.
 */
export function warmRoutes(router: { state: { location: { pathname: string; search: string } }; subscribe: (fn: (state: { location: { pathname: string; search: string } }) => void) => () => void }) {
  let last = router.state.location;
  let asked = warmFirstAddress(last);
  return router.subscribe(({ location }) => {
    if (location.pathname === last.pathname && location.search === last.search) return;
    const samePage = location.pathname === last.pathname;
    last = location;
    asked = warmRoute(location, samePage ? asked : []);
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
