import { defineModule } from '../../core/module';
import { devRoutes } from './routes';

/** DESIGN.md §6 development endpoints, only with HUBLINK_DEV_ENDPOINTS=1. */
export const devModule = defineModule({ name: 'dev', prefix: '/api/dev', enabled: (config) => config.devEndpoints, routes: devRoutes });
