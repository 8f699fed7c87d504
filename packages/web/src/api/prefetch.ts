/**
 * A page's first GET, started when its route matches (app/router.tsx), while the page's code still
 * loads: the page's own call (api/client's send) then takes the answer under way instead of asking
 * again. An answer is taken once, only by a call to the same address with the same token, and only
 * within a few seconds; anything else asks the server as before.
 */
const MAX_AGE_MS = 10_000;

interface Early {
  authorization: string;
  at: number;
  answer: Promise<Response>;
}

const early = new Map<string, Early>();

/** Starts `url` (path and query, as api/client's urlOf writes it) with these headers. */
export function prefetch(url: string, headers: Record<string, string>, timeoutMs: number) {
  const answer = fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
  // Nobody may take it: a failure is the page's own call's to see, when it asks again.
  answer.catch(() => undefined);
  early.set(url, { authorization: headers.Authorization ?? '', at: Date.now(), answer });
}

/** The answer under way for this GET, if one was started for it; taken once. */
export function takePrefetched(url: string, headers: Record<string, string>): Promise<Response> | undefined {
  const found = early.get(url);
  if (!found) return undefined;
  early.delete(url);
  if (found.authorization !== (headers.Authorization ?? '') || Date.now() - found.at > MAX_AGE_MS) return undefined;
  return found.answer;
}
