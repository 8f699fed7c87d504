import type { ClientNotification } from './management';

/*
 * Who may use a center's software service (issue 30): OpenVPN has checked the client's certificate
 * against the network's CA and CRL; with management-client-auth it then waits for the agent, which
 * asks the platform (client_auth) and answers through the management interface.
 */

/** What the platform is asked, from the notification's environment (openvpn(8), "Environmental Variables"). */
export interface ClientAuthRequest {
  commonName: string;
  /** The certificate's serial, in decimal. */
  serial: string;
  username: string;
  password: string;
  /** address:port the client connects from. */
  orig: string;
  reauth: boolean;
  platform: string;
  clientVersion: string;
  sso: string;
  hwaddr: string;
}

export type ClientAuthFinal = { verdict: 'accept' } | { verdict: 'deny'; reason: string; clientReason: string };
export type ClientAuthAnswer = ClientAuthFinal | { verdict: 'pending'; url: string; timeout: number; final: Promise<ClientAuthFinal> };
export type ClientAuthHandler = (request: ClientAuthRequest) => Promise<ClientAuthAnswer>;

export function requestOf(n: ClientNotification): ClientAuthRequest {
  const e = n.env;
  const ip = e.untrusted_ip ?? e.trusted_ip ?? '';
  const port = e.untrusted_port ?? e.trusted_port ?? '';
  return {
    commonName: e.common_name ?? '',
    serial: e.tls_serial_0 ?? '',
    username: e.username ?? '',
    password: e.password ?? '',
    orig: ip ? `${ip}:${port}` : '',
    reauth: n.event === 'REAUTH',
    platform: e.IV_PLAT ?? '',
    clientVersion: e.IV_GUI_VER ?? e.IV_VER ?? '',
    sso: e.IV_SSO ?? '',
    hwaddr: e.IV_HWADDR ?? '',
  };
}

/** A reason inside the command's double quotes: no quote, backslash or line break. */
const quoted = (text: string) => `"${text.replace(/["\\\r\n]/g, ' ').slice(0, 200)}"`;

/** The management commands that carry out an answer for one client key. */
export function answerCommand(n: Pick<ClientNotification, 'clientId' | 'keyId'>, a: ClientAuthAnswer): string {
  const ids = `${n.clientId} ${n.keyId}`;
  if (a.verdict === 'accept') return `client-auth-nt ${ids}`;
  if (a.verdict === 'deny') return `client-deny ${ids} ${quoted(a.reason)}${a.clientReason ? ` ${quoted(a.clientReason)}` : ''}`;
  // WEB_AUTH with no flags: the client opens the URL (management-notes.txt, client-pending-auth).
  return `client-pending-auth ${ids} WEB_AUTH::${a.url.replace(/\s/g, '')} ${a.timeout}`;
}
