import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Config, OutboundProxy } from '../config';
import { proxyAgent, proxyFor } from './outboundProxy';

/*
 * Requests the server makes to addresses a tenant typed (webhooks, a domain's verification file).
 * Each is bounded: one attempt, no redirects followed (a 3xx is answered as it is), a time limit for
 * the whole exchange and a cap on the answer's bytes, counted as they arrive. Unless the operator allows
 * it (HUBLINK_ALLOW_PRIVATE_TARGETS=1), a name that resolves to a loopback, private, link-local or other
 * special-purpose address is refused, checked on the address actually connected to (a DNS answer that
 * changes between a check and the connection cannot slip through), so a tenant cannot reach the
 * operator's own network through us. judgeTarget is the one judge of a target: the modules call it when
 * a tenant saves one, and outboundRequest and the LDAP client (core/ldap.ts) when they use it.
 *
 * With an egress proxy configured (HTTPS_PROXY / HTTP_PROXY, core/outboundProxy.ts) a target NO_PROXY
 * does not exempt goes through it. The target is judged first all the same; a name is then resolved
 * here too and refused when every address it has is not public (the proxy connects to what it resolves
 * itself, so this is the best we can see: the proxy's own rules guard the rest). A name this server
 * cannot resolve is left to the proxy (behind a proxy, outside names often resolve only there).
 */

export type OutboundFailure = 'invalid_url' | 'private_address' | 'dns' | 'connect' | 'timeout' | 'too_large' | 'tls';

/** Why an outbound request failed; `reason` is for the caller's message, `message` for the log. */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundFailure,
    message: string,
  ) {
    super(message);
  }
}

export interface OutboundRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, connection to last byte (default 10 s). */
  timeoutMs?: number;
  /** Bytes of the answer's body kept at most; more fails with too_large (default 64 KiB). */
  maxBytes?: number;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_MAX_BYTES = 64 * 1024;

/** Addresses no tenant target may have (RFC 6890 special-purpose ranges and friends). */
const SPECIAL = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  SPECIAL.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  // ::/96 holds :: (unspecified), ::1 (loopback) and the deprecated IPv4-compatible ::a.b.c.d.
  ['::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['3fff::', 20],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(prefix, bits, 'ipv6');
}

/** The eight 16-bit words of an IPv6 address in any spelling (the URL parser writes it in its one form first), or undefined. */
function ipv6Words(address: string): number[] | undefined {
  let canonical: string;
  try {
    canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head = '', tail] = canonical.split('::');
  const words = (part: string) => (part === '' ? [] : part.split(':'));
  const all = tail === undefined ? words(head) : [...words(head), ...Array<string>(8 - words(head).length - words(tail).length).fill('0'), ...words(tail)];
  return all.length === 8 ? all.map((w) => parseInt(w, 16)) : undefined;
}

const ipv4Of = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/**
 * The IPv4 address an IPv6 address carries and leads to, when it is one of the forms that do: mapped
 * (::ffff:a.b.c.d, however written: ::ffff:7f00:1 is 127.0.0.1), translated (::ffff:0:a.b.c.d), NAT64
 * (64:ff9b::a.b.c.d) and 6to4 (2002:AABB:CCDD::).
 */
function embeddedIpv4(w: number[]): string | undefined {
  const zeros = (from: number, to: number) => w.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && w[5] === 0xffff) return ipv4Of(w[6]!, w[7]!);
  if (zeros(0, 4) && w[4] === 0xffff && w[5] === 0) return ipv4Of(w[6]!, w[7]!);
  if (w[0] === 0x64 && w[1] === 0xff9b && zeros(2, 6)) return ipv4Of(w[6]!, w[7]!);
  if (w[0] === 0x2002) return ipv4Of(w[1]!, w[2]!);
  return undefined;
}

/** Whether an IP address is loopback, private, link-local or otherwise not a public address. */
export function isSpecialAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family !== 6) return true;
  // A zone (fe80::1%eth0) says which interface, not which address.
  const words = ipv6Words(address.split('%')[0]!);
  if (!words) return true;
  const v4 = embeddedIpv4(words);
  if (v4 !== undefined) return SPECIAL.check(v4, 'ipv4');
  return SPECIAL.check(words.map((x) => x.toString(16)).join(':'), 'ipv6');
}

/**
 * Names that are never a public host: a name without a dot (resolved through the server's own search
 * domains and hosts file: `metadata`, a cluster's `redis`), and the names reserved for one machine or
 * one site: localhost (RFC 6761), .local (mDNS), .internal (ICANN's private-use name, the clouds'
 * metadata.google.internal), .home.arpa (RFC 8375) and the hosts file's .localdomain.
 */
const LOCAL_SUFFIXES = ['localhost', 'local', 'internal', 'home.arpa', 'localdomain'];
const isLocalName = (name: string) => !name.includes('.') || LOCAL_SUFFIXES.some((s) => name === s || name.endsWith(`.${s}`));

/**
 * The host a target names, as the connection would take it, or undefined when it names none (or more
 * than a host). `target` is a URL (http://…, ldap://…) or a bare host: a name, an IPv4 address in any
 * spelling, an IPv6 address with or without brackets. The WHATWG URL parser's host rules for http
 * decide: every IPv4 spelling the resolver also takes (2130706433, 0177.0.0.1, 0x7f.1, 127.1, 0) becomes
 * its dotted form, IPv6 its compressed form, a name is lower-cased, percent- and IDNA-decoded (full-width
 * characters, 。 for a dot) and loses its trailing dots. Hosts of other schemes (ldap:) are opaque to the
 * parser, so every host goes through the http rules. Answers an IPv6 address without brackets.
 */
export function targetHost(target: string): string | undefined {
  let host = target;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(target)) {
    try {
      host = new URL(target).hostname;
    } catch {
      return undefined;
    }
  } else if (net.isIPv6(target)) host = `[${target}]`;
  else if (/[\s/\\?#@]/.test(target) || (target.includes(':') && !/^\[[^\]]*\]$/.test(target))) return undefined;
  let hostname: string;
  try {
    hostname = new URL(`http://${host}/`).hostname;
  } catch {
    return undefined;
  }
  if (hostname.startsWith('[')) return hostname.slice(1, -1);
  hostname = hostname.replace(/\.+$/, '');
  return hostname === '' ? undefined : hostname;
}

/** Why a target is refused before any connection: it names no host, or not a public one. */
export type TargetRefusal = Extract<OutboundFailure, 'invalid_url' | 'private_address'>;

/**
 * The one judge of a target a tenant typed (a webhook's URL, a directory's host, a domain's
 * verification URL), when it is saved and again when it is used: null when it may be reached, else why
 * not. An address in any spelling (targetHost) is refused when it is special (isSpecialAddress: loopback,
 * private, link-local, CGNAT, unique-local, unspecified, metadata, documentation, multicast, reserved,
 * and the IPv6 forms that carry one of those); a name when it is a local one (isLocalName). Any other
 * name passes here: what it resolves to is judged when it is used, on the address connected to
 * (guardedLookup). With the operator's allowPrivateTargets only a target naming no host is refused.
 */
export function judgeTarget(target: string, config: Pick<Config, 'allowPrivateTargets'>): TargetRefusal | null {
  const host = targetHost(target);
  if (host === undefined) return 'invalid_url';
  if (config.allowPrivateTargets) return null;
  if (net.isIP(host)) return isSpecialAddress(host) ? 'private_address' : null;
  return isLocalName(host) ? 'private_address' : null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/**
 * dns.lookup that refuses special addresses: the connection goes only to an address that passed (also
 * for other protocols to tenant targets: the LDAP client, core/ldap.ts). Its error's code is EHUBLINKPRIVATE.
 */
export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback) {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, '');
    const list = addresses as dns.LookupAddress[];
    const allowed = list.filter((a) => !isSpecialAddress(a.address));
    if (allowed.length === 0) {
      const refusal: NodeJS.ErrnoException = new Error(`${hostname} resolves only to non-public addresses`);
      refusal.code = 'EHUBLINKPRIVATE';
      return callback(refusal, '');
    }
    if (options.all) return callback(null, allowed);
    callback(null, allowed[0]!.address, allowed[0]!.family);
  });
}

/** What outboundRequest needs of the configuration: the private-target switch and the proxy, if any. */
export type OutboundConfig = Pick<Config, 'allowPrivateTargets'> & { outboundProxy?: OutboundProxy };

/** A name that resolves, here, only to addresses no tenant target may have. */
async function resolvesOnlyToSpecial(hostname: string): Promise<boolean> {
  try {
    const list = await dns.promises.lookup(hostname, { all: true });
    return list.length > 0 && list.every((a) => isSpecialAddress(a.address));
  } catch {
    return false;
  }
}

/** Sends one request to a tenant's target under the rules above. */
export async function outboundRequest(config: OutboundConfig, req: OutboundRequest): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new OutboundError('invalid_url', 'not a URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundError('invalid_url', `scheme ${url.protocol} not allowed`));
  if (url.username || url.password) return Promise.reject(new OutboundError('invalid_url', 'credentials in the URL are not allowed'));
  const refusal = judgeTarget(req.url, config);
  if (refusal) return Promise.reject(new OutboundError(refusal, `${url.hostname} is not a public host`));
  const proxy = proxyFor(url, config.outboundProxy);
  if (proxy && !config.allowPrivateTargets && !net.isIP(url.hostname.replace(/^\[|\]$/g, '')) && (await resolvesOnlyToSpecial(url.hostname))) {
    throw new OutboundError('private_address', `${url.hostname} resolves only to non-public addresses`);
  }
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = req.maxBytes ?? DEFAULT_MAX_BYTES;
  const transport = url.protocol === 'https:' ? https : http;
  const body = req.body === undefined ? undefined : Buffer.isBuffer(req.body) ? req.body : Buffer.from(req.body);

  return new Promise<OutboundResponse>((resolve, reject) => {
    let settled = false;
    const finish = (err: OutboundError | null, res?: OutboundResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) {
        request.destroy();
        reject(err);
      } else resolve(res!);
    };
    const request = transport.request(
      url,
      {
        method: req.method ?? (body ? 'POST' : 'GET'),
        headers: { 'user-agent': 'HubLink', ...req.headers, ...(body ? { 'content-length': String(body.length) } : {}) },
        // Through a proxy the connection is the proxy's (the operator's, wherever it is); direct, only to a public address.
        ...(config.allowPrivateTargets || proxy ? {} : { lookup: guardedLookup as unknown as typeof dns.lookup }),
        // One exchange, no keep-alive pool shared with anything else.
        agent: proxy ? proxyAgent(url, proxy) : false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) return finish(new OutboundError('too_large', `answer over ${maxBytes} bytes`));
          chunks.push(chunk);
        });
        res.on('end', () => finish(null, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', (e) => finish(new OutboundError('connect', e.message)));
      },
    );
    const timer = setTimeout(() => finish(new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`)), timeoutMs);
    timer.unref();
    request.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code === 'EHUBLINKPRIVATE') return finish(new OutboundError('private_address', e.message));
      if (e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN') return finish(new OutboundError('dns', e.message));
      if (/certificate|SSL|TLS/i.test(e.message) || e.code?.startsWith('ERR_TLS') || e.code?.includes('CERT')) return finish(new OutboundError('tls', e.message));
      finish(new OutboundError('connect', e.message));
    });
    request.end(body);
  });
}
