import { type Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** A POST of the area; its success toast shows and the token list reloads. */
export const useApiTokenMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: ['/api_token/'] });
