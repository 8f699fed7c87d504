import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Config } from '../config';

/*
 * Requests the server makes to addresses a tenant typed (webhooks, a domain's verification file).
 * Each is bounded: one attempt, no redirects followed (a 3xx is answered as it is), a time limit for
 * the whole exchange and a cap on the answer's bytes, counted as they arrive. Unless the operator allows
 * it (HUBLINK_ALLOW_PRIVATE_TARGETS=1), a name that resolves to a loopback, private, link-local or other
 * special-purpose address is refused, checked on the address actually connected to (a DNS answer that
 * changes between a check and the connection cannot slip through), so a tenant cannot reach the
 * operator's own network through us.
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
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  SPECIAL.addSubnet(prefix, bits, 'ipv6');
}

/** Whether an IP address is loopback, private, link-local or otherwise not a public address. */
export function isSpecialAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return SPECIAL.check(address, 'ipv4');
  if (family !== 6) return true;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it carries.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return SPECIAL.check(mapped[1]!, 'ipv4');
  return SPECIAL.check(address, 'ipv6');
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

/** Sends one request to a tenant's target under the rules above. */
export function outboundRequest(config: Pick<Config, 'allowPrivateTargets'>, req: OutboundRequest): Promise<OutboundResponse> {
  let url: URL;
  try {
    url = new URL(req.url);
  } catch {
    return Promise.reject(new OutboundError('invalid_url', 'not a URL'));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundError('invalid_url', `scheme ${url.protocol} not allowed`));
  if (url.username || url.password) return Promise.reject(new OutboundError('invalid_url', 'credentials in the URL are not allowed'));
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!config.allowPrivateTargets && net.isIP(host) && isSpecialAddress(host)) {
    return Promise.reject(new OutboundError('private_address', `${host} is not a public address`));
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
        ...(config.allowPrivateTargets ? {} : { lookup: guardedLookup as unknown as typeof dns.lookup }),
        // One exchange, no keep-alive pool shared with anything else.
        agent: false,
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
