import { BM, CODE, type DataOf, type Endpoint, type Envelope, LIMITS, type QueryOf } from '@hublink/contract';
import { API_BASE, applyCatalogue, authHeaders, freshSession, NETWORK_FAILURE, urlOf, type CallOptions } from './client';
import { toast } from './notify';
import { session } from './session';

// File transfers with the session's bearer token: spreadsheet templates and exports come down as
// blobs, imports go up as multipart. Both keep the envelope rules of client.ts.

const JSON_TYPE = 'application/json';

/** The file name a Content-Disposition header gives (RFC 5987 filename* first), or null. */
export function fileNameOf(disposition: string | null): string | null {
  if (!disposition) return null;
  const star = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, ''));
    } catch {
      // fall through to the plain name
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  return plain?.[1]?.trim() || null;
}

/** What the browser does with a downloaded file; replaced in tests. */
export const saver = {
  save(blob: Blob, name: string) {
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    a.style.display = 'none';
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(href));
  },
};

/**
 * Downloads a file from a GET endpoint and saves it as the server names it (else `fallbackName`).
 * An envelope instead of a file is a refusal: its msg shows as a warning (e.g. '数据为空，请重新筛选数据！'),
 * session codes end the session as everywhere. Resolves true when a file was saved.
 */
export async function download<E extends Endpoint>(endpoint: E, query: QueryOf<E> | undefined, fallbackName: string, timeoutMs: number = LIMITS.requestTimeoutMs): Promise<boolean> {
  if (await freshSession(endpoint)) return false;
  const sentWith = session.token();
  let res: Response;
  try {
    res = await fetch(urlOf(endpoint, query), { method: 'GET', headers: authHeaders(), signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    toast.error(BM.timeout);
    return false;
  }
  if ((res.headers.get('Content-Type') ?? '').includes(JSON_TYPE)) {
    let env: Envelope;
    try {
      env = (await res.json()) as Envelope;
    } catch {
      toast.error(BM.internalError);
      return false;
    }
    if (env.code >= 2000 || env.code === CODE.notFound) applyCatalogue(endpoint, env, {}, sentWith);
    else toast.warning(env.msg || BM.dataError);
    return false;
  }
  if (!res.ok) {
    toast.error(BM.internalError);
    return false;
  }
  try {
    saver.save(await res.blob(), fileNameOf(res.headers.get('Content-Disposition')) ?? fallbackName);
  } catch {
    toast.error(BM.internalError);
    return false;
  }
  return true;
}

/**
 * Uploads one file as multipart field `file` to a POST endpoint and applies the error catalogue to
 * the envelope it answers (so a refusal shows the server's msg). A transport failure answers
 * NETWORK_FAILURE with '系统异常,请稍候尝试!'.
 */
export async function upload<E extends Endpoint>(endpoint: E, file: File, opts: CallOptions = {}): Promise<Envelope<DataOf<E>>> {
  const expired = await freshSession(endpoint);
  if (expired) return expired;
  const form = new FormData();
  form.append('file', file, file.name);
  const sentWith = session.token();
  let env: Envelope<DataOf<E>>;
  try {
    const res = await fetch(urlOf(endpoint), {
      method: 'POST',
      headers: authHeaders(),
      body: form,
      signal: AbortSignal.timeout(opts.timeoutMs ?? LIMITS.requestTimeoutMs),
    });
    env = (await res.json()) as Envelope<DataOf<E>>;
  } catch {
    toast.error(BM.uploadError);
    return { code: NETWORK_FAILURE, msg: BM.uploadError };
  }
  return applyCatalogue(endpoint, env, opts, sentWith);
}

/**
 * Reads a file the API serves only with the session's token (a ticket's image) as a Blob, for a
 * blob URL: an <img> cannot send the bearer header. Only a path of this origin's API gets the token;
 * anything else, a refusal (an envelope) or a transport failure answers null, quietly: the screen
 * shows its placeholder, and the page's own calls deal with the session.
 */
export async function fetchBlob(src: string, timeoutMs: number = LIMITS.requestTimeoutMs): Promise<Blob | null> {
  let url: URL;
  try {
    url = new URL(src, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin || !url.pathname.startsWith(`${API_BASE}/`)) return null;
  try {
    const res = await fetch(url.pathname + url.search, { method: 'GET', headers: authHeaders(), signal: AbortSignal.timeout(timeoutMs) });
    if (!res.ok || (res.headers.get('Content-Type') ?? '').includes(JSON_TYPE)) return null;
    return await res.blob();
  } catch {
    return null;
  }
}
