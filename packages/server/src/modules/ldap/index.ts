import { defineModule } from '../../core/module';
import { ldapRoutes } from './routes';
import { queueDueSyncs, scheduledSync } from './sync';

export const ldapModule = defineModule({
  name: 'ldap',
  routes: ldapRoutes,
  jobs: [
    // Each minute: the tenants in automatic mode whose cycle has passed get a sync, one at a time each.
    { name: 'ldap.sync-due', schedule: '* * * * *', run: async ({ ctx }) => void (await queueDueSyncs(ctx)) },
    // A failed read is the sync service's abnormal state, not a failed job: the next cycle tries again.
    { name: 'ldap.sync', retryLimit: 0, timeoutSeconds: 1800, run: ({ ctx, data }) => scheduledSync(ctx, Number(data.tenant_id)) },
  ],
});
