import { LIMITS, type NetworkDetailPaging, networkStatus } from '@hublink/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { useApiQuery } from '../../api/hooks';

/**
 * Polls GET /network/status every 10 s (spec 2 §4) while the page is mounted, for the pages of members
 * and links shown; leaving the page stops it (the query loses its last observer and TanStack Query drops
 * the interval). A failed poll stays quiet. After a page change the last poll is kept, marked as a
 * placeholder, until the new pages' first.
 */
export function useNetworkStatus(query: { network_number: string } & NetworkDetailPaging, enabled: boolean) {
  return useApiQuery(networkStatus, query, {
    enabled: enabled && query.network_number !== '',
    refetchInterval: LIMITS.statusPollMs,
    refetchIntervalInBackground: false,
    quiet: true,
    placeholderData: keepPreviousData,
  });
}
