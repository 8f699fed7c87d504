import { defineModule } from '../../core/module';
import { accountRoutes } from './routes';

export const accountModule = defineModule({ name: 'account', routes: accountRoutes });
