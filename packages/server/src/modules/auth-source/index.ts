import { defineModule } from '../../core/module';
import { authSourceRoutes } from './routes';

/**
 * Third-party sign-in sources (spec 3 §2 /router/auth_source, issue 14): the console's calls and the
 * sign-in path of a member's client through enterprise WeChat, Feishu or DingTalk.
 */
export const authSourceModule = defineModule({ name: 'auth-source', routes: authSourceRoutes });
