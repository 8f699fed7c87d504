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

/** What a client is told when its center could not get the platform's word (it is refused: fails closed). */
export const PLATFORM_UNREACHABLE = '无法连接平台，请稍后重试';

export type ClientAuthFinal = { verdict: 'accept' } | { verdict: 'deny'; reason: string; clientReason: string };
/** What the agent tells openvpn: an admission carries the client's settings (client-connect directives). */
export type ClientAuthCommand = ClientAuthAnswer | { verdict: 'accept'; config: string[] };
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
export function answerCommand(n: Pick<ClientNotification, 'clientId' | 'keyId'>, a: ClientAuthCommand): string {
  const ids = `${n.clientId} ${n.keyId}`;
  if (a.verdict === 'accept') return 'config' in a && a.config.length > 0 ? [`client-auth ${ids}`, ...a.config, 'END'].join('\n') : `client-auth-nt ${ids}`;
  if (a.verdict === 'deny') return `client-deny ${ids} ${quoted(a.reason)}${a.clientReason ? ` ${quoted(a.clientReason)}` : ''}`;
  // WEB_AUTH with no flags: the client opens the URL (management-notes.txt, client-pending-auth).
  return `client-pending-auth ${ids} WEB_AUTH::${a.url.replace(/\s/g, '')} ${a.timeout}`;
}

const PREFIX = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;
const dotted = (bits: number) => [0, 8, 16, 24].map((s) => ((bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0) >>> (24 - s)) & 255).join('.');
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * What a client without the agent needs from a center, given with its admission: a route to every
 * prefix the center reaches (its LAN and its routes, not the default route) and the network's DNS. The
 * agent's own clients take none of it (route-nopull) and install routes from their configuration. Given
 * at each admission, so a change reaches a standard client at its next connection without restarting
 * the center's server (which would drop every client).
 */
export function clientPushes(config: Record<string, unknown>): string[] {
  const prefixes = new Set(strings(config.lan));
  if (Array.isArray(config.routes)) for (const g of config.routes as { prefixes?: unknown }[]) for (const p of strings(g?.prefixes)) prefixes.add(p);
  const routes = [...prefixes].flatMap((p) => {
    const m = PREFIX.exec(p);
    return m && Number(m[2]) > 0 && Number(m[2]) <= 32 ? [`push "route ${m[1]} ${dotted(Number(m[2]))}"`] : [];
  });
  return [...routes, ...strings(config.dns).filter((d) => IPV4.test(d)).map((d) => `push "dhcp-option DNS ${d}"`)];
}
