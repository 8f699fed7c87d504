import { defineModule } from '../../core/module';
import { ramRoleRoutes } from './routes';

export const ramRoleModule = defineModule({ name: 'ram-role', routes: ramRoleRoutes });
