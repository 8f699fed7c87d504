import { LIMITS, networkStatus } from '@hublink/contract';
import { useApiQuery } from '../../api/hooks';

/**
 * Polls GET /network/status every 10 s (spec 2 §4) while the page is mounted; leaving the page stops it
 * (the query loses its last observer and TanStack Query drops the interval). A failed poll stays quiet.
 */
export function useNetworkStatus(networkNumber: string, enabled: boolean) {
  return useApiQuery(
    networkStatus,
    { network_number: networkNumber },
    { enabled: enabled && networkNumber !== '', refetchInterval: LIMITS.statusPollMs, refetchIntervalInBackground: false, quiet: true },
  );
}
