import { defineModule } from '../../core/module';
import { joinImportedMembers } from './directoryMembers';
import { recordMemberDeleted } from './historyRecord';
import { historyRoutes } from './historyRoutes';
import { asCodeRoutes } from './asCodeRoutes';
import { changeRoutes } from './changes';
import { assignCreatedPop } from './pop';
import { previewRoutes } from './previewRoutes';
import { popRoutes } from './popRoutes';
import { networkRoutes } from './routes';
import { settingsRoutes } from './settingsRoutes';
import { segmentsRoutes } from './segmentsRoutes';

export const networkModule = defineModule({
  name: 'network',
  routes: (app, ctx) => {
    networkRoutes(app, ctx);
    settingsRoutes(app, ctx);
    changeRoutes(app, ctx);
    previewRoutes(app, ctx);
    segmentsRoutes(app, ctx);
    popRoutes(app, ctx);
    historyRoutes(app, ctx);
    asCodeRoutes(app, ctx);
  },
  on: { 'pop.created': assignCreatedPop, 'ldap.members_imported': joinImportedMembers, 'member.deleted': recordMemberDeleted },
});
