import { defineModule } from '../../core/module';
import { serviceRoutes } from './routes';

export const serviceModule = defineModule({ name: 'service', routes: serviceRoutes });
