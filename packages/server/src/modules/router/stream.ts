import type { WebSocket } from '@fastify/websocket';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CODE, LIMITS, M, ROUTER_TRAFFIC_STREAM, type consoleTrafficMessage } from '@hublink/contract';
import { authenticate, type Actor } from '../../core/actor';
import type { Ctx } from '../../core/context';
import { DEVICE_CHANNELS, trafficRelay, WATCH_RENEW_MS, type WatchRequest } from '../../domain/deviceChannels';
import { ApiError } from '../../core/errors';
import { findMember } from './service';

type StreamMessage = z.input<typeof consoleTrafficMessage>;

/** Streams open per tenant on this instance (per app, so several apps in one process stay apart). */
const openStreams = new WeakMap<Ctx, Map<number, number>>();

/**
 * What a console that does not read may leave unsent before new points are dropped instead of
 * queued: a live chart loses nothing worth the memory.
 */
const UNSENT_MAX_BYTES = 1024 * 1024;

/** The token and member of the stream, from the URL as sent (the GET call's schema drops the token). */
function streamQuery(req: FastifyRequest): { token: string; name: string } {
  const params = new URL(req.raw.url ?? '', 'http://localhost').searchParams;
  return { token: params.get(ROUTER_TRAFFIC_STREAM.tokenParam) ?? '', name: params.get(ROUTER_TRAFFIC_STREAM.nameParam) ?? '' };
}

/** Who may watch: the bearer guard's checks on the query's token, then the member in that tenant. */
async function admit(ctx: Ctx, token: string, name: string): Promise<{ actor: Actor; memberId: number }> {
  const actor = await authenticate(ctx.db, ctx.tokens, `Bearer ${token}`);
  const member = await findMember(ctx.db, actor, name);
  return { actor, memberId: member.id };
}

/**
 * WS /api/v1/router/traffic: relays the member's traffic points from pub/sub, wherever its device is
 * connected. The gateway relays only while someone watches, so the stream asks at once and every
 * WATCH_RENEW_MS; each renewal checks the token, the account and the member again, so an expired or
 * revoked token, a disabled account or a deleted member ends the stream within that interval.
 */
export async function serveTrafficStream(ctx: Ctx, socket: WebSocket, req: FastifyRequest): Promise<void> {
  let closed = false;
  const cleanups: (() => unknown)[] = [];
  const onClose = (fn: () => unknown) => {
    if (closed) void Promise.resolve(fn());
    else cleanups.push(fn);
  };
  socket.on('close', () => {
    closed = true;
    for (const fn of cleanups.splice(0).reverse()) {
      void Promise.resolve()
        .then(fn)
        .catch((err: unknown) => req.log.warn({ err }, 'traffic stream: cleanup failed'));
    }
  });
  // Nothing the console sends means anything here.
  socket.on('message', () => undefined);

  const send = (m: StreamMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(m));
  };
  const end = (e: unknown) => {
    if (!(e instanceof ApiError)) req.log.error({ err: e }, 'traffic stream failed');
    const [code, msg] = e instanceof ApiError ? [e.code, e.message] : [CODE.internal, M.internalError];
    send({ code, msg });
    socket.close(1000);
  };

  const { token, name } = streamQuery(req);
  let memberId: number;
  let tenantId: number;
  try {
    const admitted = await admit(ctx, token, name);
    memberId = admitted.memberId;
    tenantId = admitted.actor.tenantId;
  } catch (e) {
    return end(e);
  }
  if (closed) return;

  let counts = openStreams.get(ctx);
  if (!counts) openStreams.set(ctx, (counts = new Map()));
  const held = counts.get(tenantId) ?? 0;
  if (held >= LIMITS.trafficStreamsPerTenant) return end(new ApiError(CODE.tooMany, M.tooManyRequests));
  counts.set(tenantId, held + 1);
  onClose(() => {
    const n = (counts.get(tenantId) ?? 1) - 1;
    if (n > 0) counts.set(tenantId, n);
    else counts.delete(tenantId);
  });

  try {
    const unsubscribe = await ctx.pubsub.subscribe(DEVICE_CHANNELS.traffic(memberId), (message) => {
      const relay = trafficRelay.safeParse(message);
      if (!relay.success || relay.data.member_id !== memberId) return;
      if (socket.bufferedAmount > UNSENT_MAX_BYTES) return;
      send({ code: CODE.ok, type: 'interface', data: relay.data.data });
    });
    onClose(unsubscribe);
  } catch (e) {
    return end(e);
  }
  if (closed) return;

  const watch = () =>
    ctx.pubsub
      .publish(DEVICE_CHANNELS.watch, { member_id: memberId } satisfies WatchRequest)
      .catch((err: unknown) => req.log.warn({ err, memberId }, 'traffic stream: watch request not published'));
  const renew = async () => {
    try {
      await admit(ctx, token, name);
    } catch (e) {
      return end(e);
    }
    if (!closed) await watch();
  };
  const timer = setInterval(() => void renew(), WATCH_RENEW_MS);
  onClose(() => clearInterval(timer));

  send({ code: CODE.ok, msg: 'success' });
  await watch();
}
