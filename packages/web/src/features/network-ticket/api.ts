import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';

/** A change to an order reloads the order lists and details. */
export const useTicketMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: ['/network/ticket'] });
