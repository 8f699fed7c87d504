import { defineModule } from '../../core/module';
import { auditRoutes } from './routes';
import { applyRetention, writeEntry } from './service';

export const auditModule = defineModule({
  name: 'audit',
  routes: auditRoutes,
  on: { 'operation.performed': writeEntry },
  jobs: [
    {
      name: 'audit.retention',
      schedule: '43 3 * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await applyRetention(ctx) }, 'housekeeping: audit entries past retention removed'),
    },
  ],
});
