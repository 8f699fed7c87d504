import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** What a change to a SaaS device refreshes: the device list and detail, and the member screens. */
export const SAAS_AREA = ['/saas/', '/router/'];

export const useSaasMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: SAAS_AREA });
