import { defineModule } from '../../core/module';
import { purgeRecoveries } from './housekeeping';
import { authRoutes } from './routes';

export const authModule = defineModule({
  name: 'auth',
  routes: authRoutes,
  jobs: [
    {
      name: 'auth.purge-recoveries',
      schedule: '27 * * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await purgeRecoveries(ctx) }, 'housekeeping: expired recoveries purged'),
    },
  ],
});

export { createAccountAsOperator, type OperatorAccount } from './service';
