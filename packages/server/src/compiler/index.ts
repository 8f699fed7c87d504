import { defineModule } from '../core/module';
import { compilerRoutes } from './routes';
import { announceStored as announce } from './announce';
import { centerNetworksOf } from './load';
import { recompileNetwork } from './versions';

/**
 * The network compiler as a module: every change of a network (settings, members, links, its
 * deletion), every deleted member and every center whose reported address moved recompiles the
 * networks concerned; members whose configuration really changed get a new version (compiler/versions.ts).
 */
export const compilerModule = defineModule({
  name: 'compiler',
  routes: compilerRoutes,
  on: {
    'network.changed': async (e, ctx) => {
      await recompileNetwork(ctx, e.tenant_id, e.network_id, Date.now(), announce(ctx, e.tenant_id, e.network_id));
    },
    'member.deleted': async (e, ctx) => {
      for (const networkId of e.network_ids) await recompileNetwork(ctx, e.tenant_id, networkId, Date.now(), announce(ctx, e.tenant_id, networkId));
    },
    // The address a center reports is where its points (and the other centers' links) dial it.
    'member.changed': {
      when: (e) => e.fields.includes('router_ipv4'),
      run: async (e, ctx) => {
        for (const networkId of await centerNetworksOf(ctx.db, e.tenant_id, e.member_id)) await recompileNetwork(ctx, e.tenant_id, networkId, Date.now(), announce(ctx, e.tenant_id, networkId));
      },
    },
  },
});
