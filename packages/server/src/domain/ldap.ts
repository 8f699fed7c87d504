import type dns from 'node:dns';
import net from 'node:net';
import tls from 'node:tls';
import { Client, ResultCodeError, type Entry } from 'ldapts';
import { fmt, M } from '@hublink/contract';
import type { Config } from '../config';
import { RelayError, type RelayDoor } from './directoryRelay';
import { guardedLookup, judgeTarget } from '../core/outbound';

/*
 * The one LDAP client of the server, on ldapts: the directory sync (modules/ldap) reads a tenant's
 * directory with it and the device gateway checks a directory member's password with it. A tenant's
 * directory is a target the tenant typed, so it gets the outbound rules of core/outbound.ts (no
 * loopback, private or reserved address unless the operator allows them), every request has a time
 * limit, and every failure becomes a DirectoryError whose message a console user can act on.
 */

/** How the connection is protected: plain LDAP, LDAPS (TLS from the start), or StartTLS on the plain port. */
export type DirectorySecurity = 'plain' | 'ldaps' | 'starttls';

export interface DirectoryServer {
  host: string;
  port: number;
  security: DirectorySecurity;
  /** PEM certificates to trust for TLS; without them the system's CAs. */
  ca?: string;
  /** LDAP private mode: reached through a router's agent (core/directoryRelay.ts), not straight. */
  via?: DirectoryVia;
}

/** The way to a directory inside a branch: the router's name (for messages) and a loopback door to host:port through it. */
export interface DirectoryVia {
  router: string;
  open(host: string, port: number, timeoutMs: number): Promise<RelayDoor>;
}

export interface DirectoryLimits extends Pick<Config, 'allowPrivateTargets'> {
  /** The limit of each request (connecting, binding, a search or one page of it). */
  timeoutMs: number;
  /** A limit on the whole session too (a check, a sign-in); a sync has none, its pages each have theirs. */
  wholeSession?: boolean;
}

export type DirectoryFailure =
  | 'credentials'
  | 'no_base'
  | 'refused'
  | 'dns'
  | 'unreachable'
  | 'timeout'
  | 'closed'
  | 'private'
  | 'tls'
  | 'starttls'
  | 'need_tls'
  | 'server'
  | 'too_large'
  | 'size_limit'
  /** The selection (core/ldapSelection.ts): the group is missing or no group, a walk past its bounds, a filter refused. */
  | 'no_group'
  | 'group_limit'
  | 'filter'
  /** Private mode: the router is offline, silent, or refused the connection. */
  | 'router'
  | 'other';

/** A failure of the directory: `message` is for the console (Chinese), `detail` for the log. */
export class DirectoryError extends Error {
  constructor(
    readonly kind: DirectoryFailure,
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

/** What a session with the directory offers its user: binds and searches, each under the limits. */
export interface DirectorySession {
  bind(dn: string, password: string): Promise<void>;
  /** The entries of one search, at most `sizeLimit` (a base search, a small lookup). */
  search(base: string, opts: { scope: 'base' | 'sub'; filter: string; attributes: string[]; buffers?: string[]; sizeLimit?: number }): Promise<Entry[]>;
  /** A paged search, one page at a time, so a large directory never sits in memory whole. */
  pages(base: string, opts: { filter: string; attributes: string[]; buffers?: string[]; pageSize: number }): AsyncGenerator<Entry[]>;
}

/** The host as a URL carries it (an IPv6 address in brackets). */
const urlHost = (host: string) => (net.isIPv6(host) ? `[${host}]` : host);

const TLS_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: M.ldapErrTlsSelfSigned,
  SELF_SIGNED_CERT_IN_CHAIN: M.ldapErrTlsUntrusted,
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: M.ldapErrTlsUntrusted,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: M.ldapErrTlsUntrusted,
  UNABLE_TO_GET_ISSUER_CERT: M.ldapErrTlsUntrusted,
  CERT_SIGNATURE_FAILURE: M.ldapErrTlsUntrusted,
  ERR_TLS_CERT_ALTNAME_INVALID: M.ldapErrTlsHost,
  CERT_HAS_EXPIRED: M.ldapErrTlsExpired,
  CERT_NOT_YET_VALID: M.ldapErrTlsExpired,
};

/** LDAP result codes (RFC 4511) the console explains by name. */
const RESULT = { protocolError: 2, sizeLimitExceeded: 4, strongAuthRequired: 8, confidentialityRequired: 13, noSuchObject: 32, invalidCredentials: 49, unavailable: 52 } as const;

const failure = (kind: DirectoryFailure, message: string, detail: unknown) =>
  new DirectoryError(kind, message, detail instanceof Error ? `${(detail as NodeJS.ErrnoException).code ?? detail.name}: ${detail.message}` : String(detail));

/** The DirectoryError a failure of the client or the socket stands for. */
/** `step`: where it failed: connecting, the TLS handshake (LDAPS or StartTLS), or a request on an open connection. */
export function directoryError(err: unknown, step: 'connect' | 'tls' | 'operation'): DirectoryError {
  if (err instanceof DirectoryError) return err;
  if (err instanceof ResultCodeError) {
    if (err.code === RESULT.invalidCredentials) return failure('credentials', M.ldapErrCredentials, err);
    if (err.code === RESULT.noSuchObject) return failure('no_base', M.ldapErrNoBase, err);
    // Only a search that asked for a few entries meets it (a paged search pages past the server's limit).
    if (err.code === RESULT.sizeLimitExceeded) return failure('size_limit', M.ldapErrOther, err);
    if (err.code === RESULT.confidentialityRequired || err.code === RESULT.strongAuthRequired) return failure('need_tls', M.ldapErrNeedTls, err);
    if (step === 'tls' && (err.code === RESULT.protocolError || err.code === RESULT.unavailable)) return failure('starttls', M.ldapErrStartTls, err);
    // The server's own words (the first line, without ldapts' ' Code: 0x…' suffix): it is the tenant's directory.
    const text = err.message.replace(/\s*Code: 0x[0-9a-f]+$/i, '').split('\n')[0]!.trim().slice(0, 200);
    return failure('server', fmt(M.ldapErrServer, { message: text || `code ${err.code}` }), err);
  }
  const e = err as NodeJS.ErrnoException;
  const code = e?.code ?? '';
  const text = e?.message ?? String(err);
  if (code === 'EHUBLINKPRIVATE') return failure('private', M.ldapErrPrivate, err);
  // The client reports a socket destroyed with an error in its own words, with the error's message inside.
  if (code === TOO_LARGE || text.includes(TOO_LARGE)) return failure('too_large', M.ldapErrTooLarge, err);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return failure('dns', M.ldapErrDns, err);
  if (code === 'ECONNREFUSED') return failure('refused', M.ldapErrRefused, err);
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH' || code === 'EADDRNOTAVAIL') return failure('unreachable', M.ldapErrUnreachable, err);
  if (code === 'ETIMEDOUT' || /timed out|timeout/i.test(text)) return failure('timeout', M.ldapErrTimeout, err);
  if (TLS_REASONS[code]) return failure('tls', fmt(M.ldapErrTls, { reason: TLS_REASONS[code] }), err);
  if (code.startsWith('ERR_SSL') || code.startsWith('ERR_TLS') || /certificate|ssl|tls/i.test(text) || (step === 'tls' && code === 'ECONNRESET')) {
    return failure('tls', fmt(M.ldapErrTls, { reason: fmt(M.ldapErrTlsOther, { code: code || 'TLS' }) }), err);
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || /closed|socket error/i.test(text)) return failure('closed', M.ldapErrClosed, err);
  return failure('other', M.ldapErrOther, err);
}

/** Bytes one answer may take (a page of 500 users of four attributes is far less): a directory cannot fill our memory. */
export const ANSWER_MAX_BYTES = 16 * 1024 * 1024;
const TOO_LARGE = 'EHUBLINKTOOLARGE';

/**
 * The length a BER element announces at the start of `head` (tag, then the short or long form of the
 * length), or undefined while `head` is too short to tell.
 */
function announcedLength(head: Buffer): number | undefined {
  if (head.length < 2) return undefined;
  const first = head[1]!;
  if (first < 0x80) return first;
  const bytes = first & 0x7f;
  if (head.length < 2 + bytes) return undefined;
  let length = 0;
  for (let i = 0; i < bytes; i++) length = length * 256 + head[2 + i]!;
  return length;
}

/** A tag and the longest form of a BER length (0x80 | 127, then 127 bytes). */
const HEAD_MAX = 2 + 127;

/**
 * Counts what the server sends since the client last wrote (a request), and closes the connection once
 * an answer passes ANSWER_MAX_BYTES: the client's parser keeps a message whole until its end. An answer
 * whose first message announces more than that is closed at its first bytes: the parser copies its
 * whole buffer again with every chunk that arrives, so reading up to the bound would cost seconds of
 * processor.
 */
function bounded<S extends net.Socket>(socket: S): S {
  let received = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const tooLarge = () => socket.destroy(Object.assign(new Error(`${TOO_LARGE}: an answer over ${ANSWER_MAX_BYTES} bytes`), { code: TOO_LARGE }));
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  socket.write = ((...args: unknown[]) => {
    received = 0;
    head = Buffer.alloc(0);
    return write(...args);
  }) as S['write'];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (head) {
      head = Buffer.concat([head, chunk.subarray(0, HEAD_MAX - head.length)]);
      const announced = announcedLength(head);
      if (announced !== undefined) {
        head = null;
        if (announced > ANSWER_MAX_BYTES) return tooLarge();
      }
    }
    if (received > ANSWER_MAX_BYTES) tooLarge();
  });
  return socket;
}

/** The TLS settings of a server: its CA (else the system's), its name checked against the certificate. */
function tlsOptionsOf(server: DirectoryServer): tls.ConnectionOptions {
  return {
    ...(server.ca ? { ca: server.ca } : {}),
    // SNI takes names only; an address is still checked against the certificate's IP entries.
    ...(net.isIP(server.host) ? {} : { servername: server.host }),
    minVersion: 'TLSv1.2',
  };
}

/**
 * Opens a session with a directory, runs `work` in it and always closes it. Refuses a non-public
 * host unless allowed (judgeTarget: an address in any spelling or a local name; a name's addresses when
 * it is resolved, guardedLookup); upgrades with StartTLS first when asked; maps every failure to a
 * DirectoryError. With `wholeSession`, the whole of it must end within timeoutMs.
 */
export async function withDirectory<T>(limits: DirectoryLimits, server: DirectoryServer, work: (session: DirectorySession) => Promise<T>): Promise<T> {
  // The judge of the save (modules/ldap) again: the host in any spelling, before any connection. A
  // directory reached through a router is inside its branch: a private address is what it has.
  const refusal = judgeTarget(server.host, server.via ? { allowPrivateTargets: true } : limits);
  if (refusal === 'private_address') throw failure('private', M.ldapErrPrivate, `${server.host} is not a public host`);
  if (refusal) throw failure('dns', M.ldapErrDns, `${server.host} names no host`);
  const door = server.via ? await openDoor(server.via, server, limits.timeoutMs) : undefined;
  try {
    return await openSession(limits, server, door, work);
  } finally {
    door?.close();
  }
}

/** The router's connection to the directory, as a loopback door; its failures as DirectoryErrors naming the router. */
async function openDoor(via: DirectoryVia, server: DirectoryServer, timeoutMs: number): Promise<RelayDoor> {
  try {
    return await via.open(server.host, server.port, timeoutMs);
  } catch (err) {
    if (!(err instanceof RelayError)) throw err;
    if (err.code.startsWith('router_')) throw failure('router', err.message, err);
    const mapped = directoryError(Object.assign(new Error(err.message), { code: err.code }), 'connect');
    throw new DirectoryError(mapped.kind, fmt(M.ldapErrViaRouter, { name: via.router, message: mapped.message }), mapped.detail);
  }
}

async function openSession<T>(limits: DirectoryLimits, server: DirectoryServer, door: RelayDoor | undefined, work: (session: DirectorySession) => Promise<T>): Promise<T> {
  const lookup = limits.allowPrivateTargets || door ? undefined : (guardedLookup as unknown as typeof dns.lookup);
  // Through a door the connection is to 127.0.0.1, and the certificate is still checked against the configured host.
  const tlsOptions =
    server.security === 'plain' ? undefined : { ...tlsOptionsOf(server), ...(door ? { checkServerIdentity: (_: string, cert: tls.PeerCertificate) => tls.checkServerIdentity(server.host, cert) } : {}) };
  const scheme = server.security === 'ldaps' ? 'ldaps' : 'ldap';
  const client = new Client({
    url: door ? `${scheme}://127.0.0.1:${door.port}` : `${scheme}://${urlHost(server.host)}:${server.port}`,
    timeout: limits.timeoutMs,
    connectTimeout: limits.timeoutMs,
    // Only LDAPS connects with TLS; StartTLS upgrades the plain connection below.
    ...(server.security === 'ldaps' ? { tlsOptions } : {}),
    createConnection: ((port: number, host: string) => bounded(net.connect({ port, host, ...(lookup ? { lookup } : {}) }))) as unknown as typeof net.connect,
    createSecureConnection: ((...args: unknown[]) =>
      bounded(
        typeof args[0] === 'number'
          ? tls.connect({ port: args[0], host: args[1] as string, ...(args[2] as tls.ConnectionOptions), ...(lookup ? { lookup } : {}) })
          : tls.connect(args[0] as tls.ConnectionOptions),
      )) as unknown as typeof tls.connect,
  });

  let timedOut = false;
  let deadline: NodeJS.Timeout | undefined;
  // The whole session's limit: the answer goes at the limit, and the connection is closed behind it.
  // (Closing it is not how the wait ends: a connection still being made would then never settle.)
  const expired = new Promise<never>((_, reject) => {
    if (!limits.wholeSession) return;
    deadline = setTimeout(() => {
      timedOut = true;
      reject(failure('timeout', M.ldapErrTimeout, `no end within ${limits.timeoutMs} ms`));
      void client.unbind().catch(() => undefined);
    }, limits.timeoutMs);
    deadline.unref();
  });
  /** The client's failures as DirectoryErrors; what `work` itself throws (a database error, say) passes as it is. */
  const mapped = (err: unknown, step: 'connect' | 'tls' | 'operation') => (timedOut ? failure('timeout', M.ldapErrTimeout, err) : directoryError(err, step));
  const guarded = async <R>(op: () => Promise<R>): Promise<R> => {
    try {
      return await op();
    } catch (err) {
      throw mapped(err, client.isConnected ? 'operation' : server.security === 'ldaps' ? 'tls' : 'connect');
    }
  };

  const session: DirectorySession = {
    bind: (dn, password) => guarded(() => client.bind(dn, password)),
    search: (base, opts) =>
      guarded(async () => {
        const { searchEntries } = await client.search(base, {
          scope: opts.scope,
          filter: opts.filter,
          attributes: opts.attributes,
          explicitBufferAttributes: opts.buffers ?? [],
          sizeLimit: opts.sizeLimit ?? 0,
        });
        return searchEntries;
      }),
    async *pages(base, opts) {
      const pages = client.searchPaginated(base, {
        scope: 'sub',
        filter: opts.filter,
        attributes: opts.attributes,
        explicitBufferAttributes: opts.buffers ?? [],
        paged: { pageSize: opts.pageSize },
      });
      for (;;) {
        const next = await guarded(() => pages.next());
        if (next.done) return;
        yield next.value.searchEntries;
      }
    },
  };

  const run = async () => {
    if (server.security === 'starttls') {
      try {
        await client.startTLS({ ...tlsOptions, host: server.host });
      } catch (err) {
        throw mapped(err, 'tls');
      }
    }
    return work(session);
  };
  try {
    const running = run();
    // What the session does after the limit fails unheard.
    running.catch(() => undefined);
    return await Promise.race([running, expired]);
  } finally {
    clearTimeout(deadline);
    await client.unbind().catch(() => undefined);
  }
}
