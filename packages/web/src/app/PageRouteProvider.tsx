import { useMemo, type ReactNode } from 'react';
import { PageRouteContext, type PageRouteInfo } from '../components/pageRoute';
import { breadcrumbOf } from './menu';
import { routeOf } from './routes';

/** The route entry of a path as pages see it: title and breadcrumb; null for a path outside the table. */
export function pageRouteOf(path: string): PageRouteInfo | null {
  const route = routeOf(path);
  return route ? { title: route.title, breadcrumb: breadcrumbOf(route.path) } : null;
}

/** Gives the page under it the route entry of `path` (PageContainer reads it for its title and breadcrumb). */
export function PageRouteProvider({ path, children }: { path: string; children: ReactNode }) {
  const info = useMemo(() => pageRouteOf(path), [path]);
  return <PageRouteContext.Provider value={info}>{children}</PageRouteContext.Provider>;
}
