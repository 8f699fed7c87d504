import { defineModule } from '../../core/module';
import { writeOperationLog } from './operationLog';
import { ramRoutes } from './routes';
import { recordSignIn } from './signIn';

export const ramModule = defineModule({
  name: 'ram',
  routes: ramRoutes,
  on: { 'operation.performed': writeOperationLog, 'account.signed_in': recordSignIn },
});
