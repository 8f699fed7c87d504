import { randomUUID } from 'node:crypto';
import net from 'node:net';
import { z } from 'zod';
import { DIRECTORY_RELAY, fmt, M, ROUTER_TYPE } from '@hublink/contract';
import type { Ctx } from '../core/context';
import type { DirectoryVia } from './ldap';
import { memberKey } from './members';
import type { Unsubscribe } from '../core/pubsub';

/*
 * LDAP private mode (issue 33): the server reaches a tenant's directory inside a branch network through
 * the router its configuration names. This is the server's side: a loopback door per directory session
 * (the LDAP client connects to 127.0.0.1:<door>, so TLS still runs end to end with the directory,
 * checked against the configured host), whose bytes go over pub/sub to the instance holding the
 * router's gateway session (gateway/directoryTunnels.ts), which relays them to the router's agent
 * (packages/agent/src/directoryRelay.ts), which connects to the directory. Nothing here connects to
 * the host itself, so the host is not judged as a public target: it is inside the branch.
 */

export const RELAY_CHANNELS = {
  /** Asks the instance holding the router's session to open a relayed connection. */
  open: 'device.directory.open',
  /** From the gateway to the requester: opened, data, close. */
  down: (id: string) => `device.directory.${id}.down`,
  /** From the requester to the gateway: data, close. */
  up: (id: string) => `device.directory.${id}.up`,
} as const;

export const relayOpen = z.object({
  id: z.string().min(1).max(64),
  tenant_id: z.number().int().positive(),
  member_id: z.number().int().positive(),
  host: z.string().min(1).max(255),
  port: z.number().int().min(1).max(65535),
});
export type RelayOpen = z.infer<typeof relayOpen>;

export const relayDown = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('opened'), ok: z.boolean(), error: z.string() }),
  z.object({ kind: z.literal('data'), data: z.string() }),
  z.object({ kind: z.literal('close'), error: z.string() }),
]);
export const relayUp = z.discriminatedUnion('kind', [z.object({ kind: z.literal('data'), data: z.string() }), z.object({ kind: z.literal('close') })]);
export type RelayDown = z.infer<typeof relayDown>;
export type RelayUp = z.infer<typeof relayUp>;

/** Why the router did not connect, in the console's words. */
const REFUSALS: Record<string, string> = { not_named: M.ldapRelayNotNamed, too_many: M.ldapRelayTooMany, duplicate: M.ldapRelayDuplicate };

/** A failure on the way to the directory through the router, before any LDAP byte: `code` is an errno when the router's connection failed. */
export class RelayError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

/** A door on 127.0.0.1 whose one connection is the router's connection to the directory. */
export interface RelayDoor {
  port: number;
  close(): void;
}

/** The router a private-mode configuration names. */
export interface RouterRoute {
  tenantId: number;
  routerName: string;
}

/**
 * Opens a connection from the router to host:port and a loopback door to it, within `timeoutMs`.
 * Throws RelayError: router missing or offline, silent (an agent without the relay), refused, or its
 * connection failed (the errno in `code`, for the LDAP client's usual messages).
 */
export async function openThroughRouter(ctx: Pick<Ctx, 'db' | 'pubsub' | 'log'>, route: RouterRoute, host: string, port: number, timeoutMs: number): Promise<RelayDoor> {
  const name = route.routerName;
  const member = await ctx.db
    .selectFrom('member')
    .select(['id'])
    .where('tenant_id', '=', route.tenantId)
    .where('router_key', '=', memberKey(name))
    .where('router_type', '=', ROUTER_TYPE.hardware)
    .executeTakeFirst();
  const online = member && (await ctx.db.selectFrom('device_session').select('id').where('member_id', '=', member.id).where('tenant_id', '=', route.tenantId).executeTakeFirst());
  if (!member || !online) throw new RelayError(fmt(M.ldapErrRouterOffline, { name }), 'router_offline');

  const id = randomUUID();
  let socket: net.Socket | undefined;
  let ended = false;
  /** What arrives before the LDAP client connects to the door waits here. */
  const early: Buffer[] = [];
  let answer: ((m: RelayDown & { kind: 'opened' }) => void) | undefined;
  let closedEarly = '';
  const unsubscribe: Unsubscribe = await ctx.pubsub.subscribe(RELAY_CHANNELS.down(id), (raw) => {
    const m = relayDown.safeParse(raw);
    if (!m.success || ended) return;
    if (m.data.kind === 'opened') return answer?.(m.data);
    if (m.data.kind === 'data') {
      const bytes = Buffer.from(m.data.data, 'base64');
      if (socket) socket.write(bytes);
      else early.push(bytes);
      return;
    }
    // The router's side ended: the LDAP client sees its connection reset (or end, when it was a clean close).
    const error = m.data.error;
    if (socket) {
      if (error) socket.destroy();
      else socket.end();
    } else {
      closedEarly = error || 'closed';
      // Before the answer (the router's session ended): that is the answer.
      answer?.({ kind: 'opened', ok: false, error: closedEarly });
    }
    finish(false);
  });
  const up = (m: RelayUp) => ctx.pubsub.publish(RELAY_CHANNELS.up(id), m).catch((err: unknown) => ctx.log.warn({ err }, 'ldap relay: a message to the router was lost'));
  /** The loopback door, once the router connected. */
  const door: { server?: net.Server } = {};
  const finish = (tellRouter: boolean) => {
    if (ended) return;
    ended = true;
    door.server?.close(() => undefined);
    void unsubscribe().catch(() => undefined);
    if (tellRouter) void up({ kind: 'close' });
  };

  try {
    const opened = await new Promise<RelayDown & { kind: 'opened' }>((resolve, reject) => {
      // The agent gives up connecting after openTimeoutSeconds; a little more for the way there and back.
      const wait = Math.min(timeoutMs, (DIRECTORY_RELAY.openTimeoutSeconds + 5) * 1000);
      const timer = setTimeout(() => reject(new RelayError(fmt(M.ldapErrRouterSilent, { name }), 'router_silent')), wait);
      timer.unref();
      answer = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      ctx.pubsub.publish(RELAY_CHANNELS.open, { id, tenant_id: route.tenantId, member_id: member.id, host, port } satisfies RelayOpen).catch((err: unknown) => {
        clearTimeout(timer);
        reject(err instanceof Error ? err : new Error(String(err)));
      });
    });
    if (!opened.ok) {
      if (opened.error === 'router_offline') throw new RelayError(fmt(M.ldapErrRouterOffline, { name }), 'router_offline');
      const reason = REFUSALS[opened.error];
      if (reason) throw new RelayError(fmt(M.ldapErrRouterRefused, { name, reason }), 'router_refused');
      throw new RelayError(`the router's connection to ${host}:${port} failed: ${opened.error}`, opened.error || 'ECONNRESET');
    }
    if (closedEarly) throw new RelayError(`the router's connection to ${host}:${port} closed at once: ${closedEarly}`, 'ECONNRESET');
  } catch (err) {
    finish(false);
    throw err;
  }

  // One connection through the door, the first; then the door shuts.
  const server = net.createServer({ noDelay: true }, (accepted) => {
    server.close();
    if (socket || ended) return accepted.destroy();
    socket = accepted;
    for (const bytes of early.splice(0)) accepted.write(bytes);
    accepted.on('data', (chunk: Buffer) => {
      for (let at = 0; at < chunk.length; at += DIRECTORY_RELAY.chunkBytes) void up({ kind: 'data', data: chunk.subarray(at, at + DIRECTORY_RELAY.chunkBytes).toString('base64') });
    });
    accepted.on('error', () => undefined);
    accepted.on('close', () => finish(true));
  });
  door.server = server;
  server.maxConnections = 1;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () => {
      socket?.destroy();
      server.close(() => undefined);
      finish(true);
    },
  };
}

/** The way through the router a private-mode configuration names (core/ldap.ts DirectoryServer.via). */
export const routerVia = (ctx: Pick<Ctx, 'db' | 'pubsub' | 'log'>, route: RouterRoute): DirectoryVia => ({
  router: route.routerName,
  open: (host, port, timeoutMs) => openThroughRouter(ctx, route, host, port, timeoutMs),
});
