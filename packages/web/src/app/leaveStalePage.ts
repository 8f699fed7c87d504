import type { DataRouter } from 'react-router';
import { consoleEntryBehind } from '../session/consoleHistory';
import { DEFAULT_PATH } from '../session/paths';
import { routeOf } from './routes';

/** What leaving needs of the app's router. */
type AppRouter = Pick<DataRouter, 'navigate' | 'state'>;

/** The list a page belongs to (the route table's menu entry), or the overview. */
export function listPathOf(pathname: string): string {
  const route = routeOf(pathname);
  return route?.menu && route.menu !== route.path ? route.menu : DEFAULT_PATH;
}

/**
 * What a 204 (the record is gone, spec 1 §8) does after its message: back one page when that page
 * is the console's, else to the list of the current page, replacing the stale link.
 */
export function leaveStalePage(router: AppRouter, behind = consoleEntryBehind()) {
  if (behind) void router.navigate(-1);
  else void router.navigate(listPathOf(router.state.location.pathname), { replace: true });
}
