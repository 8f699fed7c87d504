import { browser } from '../api/client';
import { session, sessionNotice } from '../api/session';
import { tabs, type TabNews } from '../api/tabs';
import { safeRedirect } from '../features/auth/redirect';
import { LOGIN_PATHS } from '../session/guard';
import { normalizePath } from '../session/paths';
import { forgetSessionHere, setUser } from '../session/user';

/** What the console's router offers this module: where it is, and a way to go elsewhere. */
export interface TabRouter {
  state: { location: { pathname: string; search: string } };
  navigate(to: string, opts: { replace: boolean }): Promise<void>;
}

/**
 * One session per browser (docs/decisions.md, "One session per browser"): what another tab does to
 * the session reaches this one.
 * - signed out (or lost) there: a tab that was signed in forgets its copy and reloads, so the guard
 *   shows the login page with a way back to where it was (and the notice of a lost session);
 * - signed in there: this tab goes on with the session; on the login page it goes where the login
 *   page would have sent it, a tab that held another session reloads with the new one.
 */
export function onTabNews(news: TabNews, router: TabRouter) {
  if (news.type === 'signed-out') {
    if (!session.heldHere()) return;
    forgetSessionHere();
    if (news.notice) sessionNotice.set(news.notice);
    browser.reload();
    return;
  }
  const heldBefore = session.heldHere();
  sessionNotice.clear();
  session.token(); // takes the new token from the cookie
  const { pathname, search } = router.state.location;
  if (LOGIN_PATHS.includes(normalizePath(pathname))) {
    setUser(news.user);
    void router.navigate(safeRedirect(new URLSearchParams(search).get('redirect')), { replace: true });
  } else if (heldBefore) {
    browser.reload();
  } else {
    setUser(news.user);
  }
}

/** Listens to the other tabs for the life of the page. */
export function syncSessionAcrossTabs(router: TabRouter): () => void {
  return tabs.listen((news) => onTabNews(news, router));
}
