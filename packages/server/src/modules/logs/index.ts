import { defineModule } from '../../core/module';
import { logsRoutes } from './routes';

export const logsModule = defineModule({ name: 'logs', routes: logsRoutes });
