import { defineModule } from '../core/module';
import { selfServiceRoutes } from './routes';

/** A member's self-service page (issue 30): its own profiles and a link for its phone. Not a module folder: it uses the compiler's profiles and the gateway's sign-in rules. */
export const selfServiceModule = defineModule({
  name: 'self-service',
  routes: selfServiceRoutes,
});
