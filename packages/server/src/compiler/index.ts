import { defineModule } from '../core/module';
import { compilerRoutes } from './routes';
import { announceStored as announce } from './announce';
import { recompileNetwork } from './versions';

/**
 * The network compiler as a module: every change of a network (settings, members, links, its
 * deletion) and every deleted member recompiles the networks concerned; members whose configuration
 * really changed get a new version (compiler/versions.ts).
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
  },
});
