/**
 * A page's first GET, started when its route matches (app/router.tsx), while the page's code still
 * loads: the page's own call (api/client's send) then takes the answer under way instead of asking
 * again. Only a call to the same address with the same token takes it, within a few seconds. Every
 * such call joins while the answer is still under way (a first page often asks twice: the frame for
 * the user, the page for its card); once it has come, the first call to take it is the last.
 */
const MAX_AGE_MS = 10_000;

interface Early {
  authorization: string;
  at: number;
  answer: Promise<Response>;
  settled: boolean;
  taken: boolean;
}

const early = new Map<string, Early>();

/** Starts `url` (path and query, as api/client's urlOf writes it) with these headers. */
export function prefetch(url: string, headers: Record<string, string>, timeoutMs: number) {
  const entry: Early = { authorization: headers.Authorization ?? '', at: Date.now(), answer: fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) }), settled: false, taken: false };
  early.set(url, entry);
  // A failure is the page's own call's to see, when it asks again.
  entry.answer.then(
    () => settle(url, entry),
    () => settle(url, entry),
  );
}

function settle(url: string, entry: Early) {
  entry.settled = true;
  if (entry.taken && early.get(url) === entry) early.delete(url);
}

/** The answer under way (or come) for this GET, if one was started for it: a copy for each call that takes it. */
export function takePrefetched(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const found = early.get(url);
  if (!found) return undefined;
  if (found.authorization !== (headers.Authorization ?? '') || Date.now() - found.at > MAX_AGE_MS) {
    early.delete(url);
    return undefined;
  }
  found.taken = true;
  if (found.settled) early.delete(url);
  return found.answer.then((r) => r.clone());
}
