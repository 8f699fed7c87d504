import { defineModule } from '../../core/module';
import { messageRoutes } from './routes';

export const messageModule = defineModule({ name: 'message', routes: messageRoutes });
