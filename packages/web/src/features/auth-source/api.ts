import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** Every call of the area: a change to a source reloads the list and the source. */
const AREA = ['/auth_source/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useSourceMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: AREA });
