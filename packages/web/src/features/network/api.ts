import { type Endpoint, networkDriftOf } from '@hublink/contract';
import { useApiMutation, useApiQuery } from '../../api/hooks';

/** A change to a network refreshes every network list, detail and quota, and the member pickers. */
const AREA = ['/network/', '/router/'];

/** A POST of the area; its success toast shows and the area's queries reload. */
export const useNetworkMutation = <E extends Endpoint>(endpoint: E) => useApiMutation(endpoint, { invalidates: AREA });

/**
 * The network's drift from the last applied document (networks as code); its path is in the area, so a
 * save in any dialog reads it again. Quiet: the notice shows its own failure, and a network that is gone
 * is left by the page's own call.
 */
export const useNetworkDrift = (networkNumber: string) => useApiQuery(networkDriftOf, { network_number: networkNumber }, { quiet: true, on204: 'stay' });
