import { defineModule } from '../../core/module';
import { overviewRoutes } from './routes';

/** The dashboard's live overview (issue 18): reads only, through core/overview.ts; owns no table. */
export const overviewModule = defineModule({ name: 'overview', routes: overviewRoutes });
