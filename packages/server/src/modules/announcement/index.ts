import { defineModule } from '../../core/module';
import { announcementRoutes } from './routes';

export const announcementModule = defineModule({ name: 'announcement', routes: announcementRoutes });

export { allAnnouncements, markdownToHtml, withdraw as withdrawAnnouncement, type OperatorAnnouncement } from './operator';
export { publish as publishAnnouncement } from './service';
