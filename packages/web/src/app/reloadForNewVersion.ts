const RELOADED_FOR = 'hublink:reloaded-for';

/** The page's reload, an object's method so tests can watch it (jsdom cannot reload). */
export const page = { reload: () => window.location.reload() };

/** The build this page runs: the entry script's URL carries a content hash, new with every deploy. */
function currentBuild(): string {
  return document.querySelector<HTMLScriptElement>('script[type="module"][src]')?.src ?? 'unknown';
}

/**
 * A chunk failed to load: most likely a new version was deployed since this page loaded, and the old
 * chunks it asks for are gone. Reloads the page (which brings the new version) at most once per build,
 * remembered for the tab's session; answers false when this build has reloaded already, so a chunk
 * that is really missing shows the error page instead of reloading forever.
 */
export function reloadForNewVersion(): boolean {
  const build = currentBuild();
  try {
    if (sessionStorage.getItem(RELOADED_FOR) === build) return false;
    sessionStorage.setItem(RELOADED_FOR, build);
  } catch {
    // Without storage there is no guard against a reload loop, so no reload either.
    return false;
  }
  page.reload();
  return true;
}

/**
 * Vite's import helper reports a chunk (or its CSS) that failed to load as a `vite:preloadError`
 * event before it throws; cancelling the event stops the throw, which is what we want while the page
 * reloads. Registered before any chunk is imported.
 */
export function reloadOnPreloadError(): () => void {
  const onError = (event: Event) => {
    if (reloadForNewVersion()) event.preventDefault();
  };
  window.addEventListener('vite:preloadError', onError);
  return () => window.removeEventListener('vite:preloadError', onError);
}
