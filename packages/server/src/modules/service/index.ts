import { defineModule } from '../../core/module';
import { serviceRoutes } from './routes';

export const serviceModule = defineModule({ name: 'service', routes: serviceRoutes });

export { grant as grantService, revoke as revokeService, tenantServices } from './service';
