import type { NetworkChange } from '@hublink/contract';
import { defineModule } from '../core/module';
import { renewCertificates, revokeDeletedMember, syncNetworkCertificates } from './certificates';

/** The changes that can change who is in a network or at which position ('deleted' takes the PKI along by cascade). */
const MEMBERSHIP_CHANGES: readonly NetworkChange[] = ['created', 'edited', 'members'];

/**
 * The per-network PKI as a module of the backbone: certificates follow the members through the
 * network and member events, and a daily job renews what nears its end. It serves no routes.
 */
export const pkiModule = defineModule({
  name: 'pki',
  on: {
    'network.changed': async (e, ctx) => {
      if (!MEMBERSHIP_CHANGES.includes(e.change)) return;
      const r = await syncNetworkCertificates(ctx, e.tenant_id, e.network_id, new Date());
      if (r && (r.issued.length > 0 || r.revoked.length > 0)) {
        await ctx.events.emit(ctx.db, { type: 'network_pki.changed', tenant_id: e.tenant_id, network_id: e.network_id, member_ids: r.issued, crl: r.revoked.length > 0 });
      }
    },
    'member.deleted': async (e, ctx) => {
      const revoked = await revokeDeletedMember(ctx, e.tenant_id, e.member_id, e.network_ids, new Date());
      if (revoked.length === 0) return;
      // Which of the networks rebuilt a CRL is not told apart: each one's centers get their files again.
      const events = e.network_ids.map((network_id) => ({ type: 'network_pki.changed' as const, tenant_id: e.tenant_id, network_id, member_ids: [], crl: true }));
      await ctx.events.emitAll(ctx.db, events);
    },
  },
  jobs: [
    {
      name: 'pki.renew-certificates',
      schedule: '43 3 * * *',
      run: async ({ ctx }) => {
        const r = await renewCertificates(ctx, new Date());
        const byNetwork = new Map<number, { tenant_id: number; member_ids: number[] }>();
        for (const m of r.renewedMembers) {
          const n = byNetwork.get(m.networkId) ?? { tenant_id: m.tenantId, member_ids: [] };
          n.member_ids.push(m.memberId);
          byNetwork.set(m.networkId, n);
        }
        const events = [...byNetwork].map(([network_id, n]) => ({ type: 'network_pki.changed' as const, network_id, ...n, crl: false }));
        if (events.length > 0) await ctx.events.emitAll(ctx.db, events);
        ctx.log.info({ renewed: r.renewed.length, crls: r.crls.length, failed: r.failures.length }, 'pki: certificates and CRLs renewed');
        // A failed network makes the run fail, so the job is tried again (what succeeded is not redone).
        if (r.failures.length > 0) throw new Error(`pki renewal failed for networks ${r.failures.map((f) => `${f.networkId} (${f.error})`).join(', ')}`);
      },
    },
  ],
});
