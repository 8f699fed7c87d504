import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { authorizeAuthSource, authSourceToken, loginSources, type Envelope, type LoginSourceItem } from '@hublink/contract';

/*
 * Signing a member in through the tenant's sign-in source (enterprise WeChat, Feishu, DingTalk), as a
 * native app does it (RFC 8252, PKCE RFC 7636): the agent listens on a loopback port, the user opens
 * the authorize URL in a browser and signs in at the provider, the browser comes back to the loopback
 * port with a one-time ticket, and the agent redeems it with its PKCE verifier for the member's login
 * and a device credential.
 */

export interface SourceSignInOptions {
  /** The server: http(s)://host[:port]. */
  api: string;
  /** The tenant's ID code. */
  code: string;
  /** The source's id or name; may be left out when the tenant has one enabled source. */
  source?: string;
  /** Shows the user the URL to open in a browser (default: prints it). */
  open?: (url: string) => void;
  /** How long to wait for the browser to come back (default 5 minutes). */
  timeoutMs?: number;
}

export interface SourceSignIn {
  /** 'username@sign', what the gateway's hello names. */
  login: string;
  credential: string;
}

const API = '/api/v1';

async function envelope<T>(res: Response): Promise<T> {
  const env = (await res.json()) as Envelope<T>;
  if (env.code !== 200) throw new Error(env.msg);
  return env.data as T;
}

/** The source to sign in with: the one named (by id or name), or the only one. */
function pick(sources: LoginSourceItem[], wanted: string | undefined): LoginSourceItem {
  if (wanted === undefined) {
    if (sources.length === 1) return sources[0]!;
    throw new Error(`choose a source with --source: ${sources.map((s) => `${s.id} (${s.name})`).join(', ') || 'the tenant has none enabled'}`);
  }
  const found = sources.find((s) => String(s.id) === wanted || s.name === wanted);
  if (!found) throw new Error(`no enabled source ${wanted}; the tenant has ${sources.map((s) => `${s.id} (${s.name})`).join(', ') || 'none'}`);
  return found;
}

/** Listens on 127.0.0.1 for the browser's return to `/callback` with our state; answers its query. */
async function loopback(state: string, timeoutMs: number) {
  let settle: (q: URLSearchParams | Error) => void = () => {};
  const arrived = new Promise<URLSearchParams | Error>((resolve) => (settle = resolve));
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/callback' || url.searchParams.get('state') !== state) {
      res.writeHead(404).end();
      return;
    }
    const error = url.searchParams.get('error_description') ?? url.searchParams.get('error');
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(error ? `Sign-in failed: ${error}\n` : 'Signed in. You may close this window.\n');
    settle(url.searchParams);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const timer = setTimeout(() => settle(new Error(`no sign-in within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
  return {
    redirectUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    async result(): Promise<URLSearchParams> {
      const r = await arrived;
      clearTimeout(timer);
      server.closeAllConnections();
      server.close();
      if (r instanceof Error) throw r;
      return r;
    },
  };
}

/** Runs the sign-in; rejects with the server's or the provider's reason when it fails. */
export async function signInWithSource(opts: SourceSignInOptions): Promise<SourceSignIn> {
  const api = opts.api.replace(/\/+$/, '');
  const sources = await envelope<LoginSourceItem[]>(await fetch(`${api}${API}${loginSources.path}?${new URLSearchParams({ code: opts.code })}`));
  const source = pick(sources, opts.source);

  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const state = randomBytes(16).toString('hex');
  const back = await loopback(state, opts.timeoutMs ?? 5 * 60_000);
  const query = new URLSearchParams({ code: opts.code, source: String(source.id), redirect_uri: back.redirectUri, state, code_challenge: challenge, code_challenge_method: 'S256' });
  (opts.open ?? ((url) => console.log(`Open this address in a browser to sign in with ${source.name}:\n  ${url}`)))(`${api}${API}${authorizeAuthSource.path}?${query}`);

  const params = await back.result();
  const ticket = params.get('ticket');
  if (!ticket) throw new Error(params.get('error_description') ?? params.get('error') ?? 'the sign-in came back without a ticket');
  return envelope<SourceSignIn>(
    await fetch(`${api}${API}${authSourceToken.path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ticket, code_verifier: verifier }),
    }),
  );
}
