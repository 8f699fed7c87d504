import { defineModule } from '../../core/module';
import { importJob } from './importJob';
import { sweepImports } from './importStatus';
import { routerRoutes } from './routes';

/**
 * Members (spec 3 §2, §5): owns member and the bulk imports (member_import, member_import_row). The
 * import job adds an uploaded file's rows in the background; the hourly sweep fails imports whose job
 * was lost and removes ended ones after LIMITS.importKeepDays.
 */
export const routerModule = defineModule({
  name: 'router',
  routes: routerRoutes,
  jobs: [importJob, { name: 'router.imports-sweep', schedule: '41 * * * *', run: ({ ctx }) => sweepImports(ctx) }],
});
