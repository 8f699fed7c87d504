import { DEVICE_CLOSE, MEMBER_CERTIFICATE_FIELD } from '@hublink/contract';
import type { Ctx } from '../core/context';
import { defineModule } from '../core/module';
import { revokeDeviceCredentials } from '../domain/deviceCredentials';
import { endMemberSessions } from '../core/memberSessions';
import { publishDelivery } from './deliveries';
import { relayRoutes } from './relayTable';
import { Gateway } from './gateway';
import { sweepSessions } from './sessionRows';

/** One gateway per app (tests run several apps in one process). */
const gateways = new WeakMap<Ctx, Gateway>();
export function gatewayOf(ctx: Ctx): Gateway {
  let g = gateways.get(ctx);
  if (!g) {
    g = new Gateway(ctx);
    gateways.set(ctx, g);
  }
  return g;
}

/**
 * Member changes that revoke the device's credentials and end its sessions: a new secret, or
 * 'credentials' (what let it sign in was withdrawn, e.g. the sign-in source that issued them).
 */
const SECRET_FIELDS = ['password', 'credentials'];

/**
 * Ends a member's clients at the centers of its networks at once (client-kill): a disabled member, or
 * one whose certificate was re-issued, must not keep a session its next connection would not get.
 */
async function killClients(ctx: Ctx, tenantId: number, memberId: number) {
  const member = await ctx.db.selectFrom('member').select('router_name').where('id', '=', memberId).where('tenant_id', '=', tenantId).executeTakeFirst();
  if (!member) return;
  const rows = await ctx.db
    .selectFrom('network_member as mine')
    .innerJoin('network_member as c', 'c.network_id', 'mine.network_id')
    .select(['c.network_id', 'c.member_id'])
    .where('mine.member_id', '=', memberId)
    .where('mine.tenant_id', '=', tenantId)
    .where('c.tenant_id', '=', tenantId)
    .where('c.member_type', '=', 'center')
    .execute();
  const byNetwork = new Map<number, number[]>();
  for (const r of rows) byNetwork.set(r.network_id, [...(byNetwork.get(r.network_id) ?? []), r.member_id]);
  for (const [network_id, member_ids] of byNetwork) await publishDelivery(ctx, { kind: 'client_kill', network_id, member_ids, common_names: [member.router_name] });
}

/**
 * The device gateway (WS /api/device/v1/ws, docs/device-protocol.md) as a module: its route, its
 * sessions' start and drain, the events it turns into deliveries to devices, and the sweep that
 * ends the sessions of instances that died.
 */
export const gatewayModule = defineModule({
  name: 'gateway',
  prefix: '/api/device/v1',
  routes: (app, ctx) => {
    const gateway = gatewayOf(ctx);
    app.get('/ws', { websocket: true, schema: { hide: true } }, (socket, req) => gateway.accept(socket, req));
    relayRoutes(app, ctx);
  },
  start: (ctx) => gatewayOf(ctx).start(),
  stop: (ctx) => gatewayOf(ctx).stop(),
  on: {
    'member_config.changed': async (e, ctx) => {
      if (e.member_ids.length > 0) await publishDelivery(ctx, { kind: 'config', network_id: e.network_id, member_ids: e.member_ids });
      if (e.removed_member_ids.length > 0) await publishDelivery(ctx, { kind: 'leave', network_id: e.network_id, member_ids: e.removed_member_ids });
    },
    'network_pki.changed': async (e, ctx) => {
      const centers = e.crl
        ? (await ctx.db.selectFrom('network_member').select('member_id').where('network_id', '=', e.network_id).where('tenant_id', '=', e.tenant_id).where('member_type', '=', 'center').execute()).map((r) => r.member_id)
        : [];
      const member_ids = [...new Set([...e.member_ids, ...centers])];
      if (member_ids.length > 0) await publishDelivery(ctx, { kind: 'config', network_id: e.network_id, member_ids });
    },
    'member.command_queued': async (e, ctx) => {
      await publishDelivery(ctx, { kind: 'command', member_id: e.member_id, command_id: e.command_id });
    },
    // Only the fields it acts on: a note's edit, the commonest change, makes no delivery here.
    'member.changed': {
      when: (e) => e.fields.some((f) => SECRET_FIELDS.includes(f) || f === 'status' || f === MEMBER_CERTIFICATE_FIELD),
      run: async (e, ctx) => {
        if (e.fields.some((f) => SECRET_FIELDS.includes(f))) {
          await revokeDeviceCredentials(ctx, e.member_id);
          await publishDelivery(ctx, { kind: 'close', member_id: e.member_id, code: DEVICE_CLOSE.revoked, reason: 'the secret changed' });
          // Its standard clients at the centers and its self-service sessions too: they were admitted with the secret that changed.
          await killClients(ctx, e.tenant_id, e.member_id);
          await endMemberSessions(ctx, e.member_id);
        }
        if (e.fields.includes('status')) {
          const m = await ctx.db.selectFrom('member').select('status').where('id', '=', e.member_id).where('tenant_id', '=', e.tenant_id).executeTakeFirst();
          if (m && m.status !== 1) {
            await publishDelivery(ctx, { kind: 'close', member_id: e.member_id, code: DEVICE_CLOSE.disabled, reason: 'member disabled' });
            await killClients(ctx, e.tenant_id, e.member_id);
          }
        }
        if (e.fields.includes(MEMBER_CERTIFICATE_FIELD)) await killClients(ctx, e.tenant_id, e.member_id);
      },
    },
    'member.deleted': async (e, ctx) => {
      await publishDelivery(ctx, { kind: 'close', member_id: e.member_id, code: DEVICE_CLOSE.revoked, reason: 'member deleted' });
    },
  },
  jobs: [
    {
      name: 'gateway.sweep-sessions',
      schedule: '* * * * *',
      run: async ({ ctx }) => {
        const ended = await sweepSessions(ctx, Date.now());
        if (ended > 0) ctx.log.info({ ended }, 'gateway: ended the sessions of instances that stopped');
      },
    },
  ],
});
