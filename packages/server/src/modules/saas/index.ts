import { defineModule } from '../../core/module';
import { purgeOldHistory } from './retention';
import { saasRoutes } from './routes';

export { assignSaasDevice, SaasAssignError, type SaasAssignment } from './assign';
export { assignAsOperator, listAllSaasDevices, unassignSaasDevice, type OperatorSaasDevice } from './operator';

export const saasModule = defineModule({
  name: 'saas',
  routes: saasRoutes,
  jobs: [
    {
      name: 'saas.purge-history',
      schedule: '43 3 * * *',
      run: async ({ ctx }) => ctx.log.info({ deleted: await purgeOldHistory(ctx) }, 'housekeeping: old flow and traffic minutes purged'),
    },
  ],
});
