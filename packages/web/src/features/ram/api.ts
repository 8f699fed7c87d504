import { type Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** Every list, count and select of the area: a change to sub-accounts or roles refreshes them all. */
const AREA = ['/ram/', '/ram_role/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useRamMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: AREA });
