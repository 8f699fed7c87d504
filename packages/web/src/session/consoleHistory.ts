/**
 * Whether this tab has an entry of the console behind the current one. React Router numbers the
 * entries it creates in history.state.idx from 0, the page the console was opened at, so a new tab
 * (or a link from elsewhere) has none, and history.back() would leave the console (about:blank).
 */
export function consoleEntryBehind(state: unknown = window.history.state): boolean {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}
