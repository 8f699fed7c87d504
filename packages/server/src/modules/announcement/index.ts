import { defineModule } from '../../core/module';
import { announcementRoutes } from './routes';

export const announcementModule = defineModule({ name: 'announcement', routes: announcementRoutes });
