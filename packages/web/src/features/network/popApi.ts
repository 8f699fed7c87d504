import type { Endpoint } from '@hublink/contract';
import { useApiMutation } from '../../api/hooks';
import type { CallOptions } from '../../api/client';

/** A POP change refreshes the network's queries and the areas of its resource (network_fr/*). */
const AREA = ['/network/', '/router/', '/network_fr/'];

export const usePopMutation = <E extends Endpoint>(endpoint: E, opts: CallOptions = {}) => useApiMutation(endpoint, { ...opts, invalidates: AREA });
