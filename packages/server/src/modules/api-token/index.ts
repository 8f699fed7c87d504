import { defineModule } from '../../core/module';
import { apiTokenRoutes } from './routes';

/** Personal API tokens (issue 18): the calls that manage them; core/apiTokens.ts authenticates calls made with one. */
export const apiTokenModule = defineModule({ name: 'api-token', routes: apiTokenRoutes });
