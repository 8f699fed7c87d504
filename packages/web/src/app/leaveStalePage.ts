import type { DataRouter } from 'react-router';
import { DEFAULT_PATH } from './paths';
import { routeOf } from './routes';

/** What leaving needs of the app's router. */
type AppRouter = Pick<DataRouter, 'navigate' | 'state'>;

/**
 * Whether this tab has an entry of the console behind the current one. React Router numbers the
 * entries it creates in history.state.idx from 0, the page the console was opened at, so a new tab
 * (or a link from elsewhere) has none, and history.back() would leave the console (about:blank).
 */
export function consoleEntryBehind(state: unknown = window.history.state): boolean {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}

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
