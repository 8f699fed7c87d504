import { createHash, randomBytes } from 'node:crypto';
import type { Config } from '../../src/config';
import { startDingtalk, type LocalDingtalk } from './dingtalk';
import { startFeishu, type LocalFeishu } from './feishu';
import { startWecom, type LocalWecom } from './wecom';

export type { LocalDingtalk, LocalFeishu, LocalWecom };

export interface LocalProviders {
  wecom: LocalWecom;
  feishu: LocalFeishu;
  dingtalk: LocalDingtalk;
  /** The server's configuration that sends its provider calls here. */
  urls: Config['authProviders'];
  close(): Promise<void>;
}

/** The three local providers, on free ports, without apps: a test registers the apps it needs. */
export async function startProviders(): Promise<LocalProviders> {
  const [wecom, feishu, dingtalk] = await Promise.all([startWecom(), startFeishu(), startDingtalk()]);
  return {
    wecom,
    feishu,
    dingtalk,
    urls: { wecomLogin: wecom.url, wecomApi: wecom.url, feishu: feishu.url, dingtalkLogin: dingtalk.url, dingtalkApi: dingtalk.url },
    close: async () => {
      await Promise.all([wecom.close(), feishu.close(), dingtalk.close()]);
    },
  };
}

/** A PKCE pair (RFC 7636, S256) as a client makes one. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Where a browser ends up: a redirect to `stopAt` (not followed), or a page that answered. */
export type BrowseResult = { kind: 'arrived'; url: URL } | { kind: 'page'; status: number; url: string; body: string };

/**
 * Does what the member's browser does: opens `start` and follows redirects across hosts (the server,
 * the provider, back to the server) until one leads to `stopAt` (the client's loopback address, which
 * the client itself would serve) or a page answers.
 */
export async function browse(start: string, stopAt: string, maxHops = 10): Promise<BrowseResult> {
  let url = start;
  for (let hop = 0; hop < maxHops; hop++) {
    if (url.startsWith(stopAt)) return { kind: 'arrived', url: new URL(url) };
    const res = await fetch(url, { redirect: 'manual' });
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.body?.cancel();
      url = new URL(location, url).toString();
      continue;
    }
    return { kind: 'page', status: res.status, url, body: await res.text() };
  }
  throw new Error(`more than ${maxHops} redirects from ${start}`);
}
