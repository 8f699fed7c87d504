import { defineModule } from '../../core/module';
import { siteRoutes } from './routes';

export const siteModule = defineModule({ name: 'site', routes: siteRoutes });
