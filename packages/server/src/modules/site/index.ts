import { defineModule } from '../../core/module';
import { siteRoutes } from './routes';

export const siteModule = defineModule({ name: 'site', routes: siteRoutes });

export { BRAND_LOGOS, brandHosts, brandHostSchema, removeBrandHost, setBrandHost } from './brands';
