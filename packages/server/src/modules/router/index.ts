import { defineModule } from '../../core/module';
import { routerRoutes } from './routes';

export const routerModule = defineModule({ name: 'router', routes: routerRoutes });
