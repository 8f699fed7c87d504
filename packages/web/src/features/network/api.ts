import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** A change to a network refreshes every network list, detail and quota, and the member pickers. */
const AREA = ['/network/', '/router/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useNetworkMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: AREA });
