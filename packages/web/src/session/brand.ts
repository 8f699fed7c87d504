import { siteInfo, type Brand } from '@hublink/contract';
import { useApiQuery } from '../api/hooks';

/** What the shell shows until /site/info answers (a neutral, non-own host). */
export const DEFAULT_BRAND: Brand = { name: 'HubLink', logo: 'default', own: false, filing: '' };

/** The brand of this host (logo, name, own-host flag, filing number); fetched once per page load. */
export function useBrand(): Brand {
  const q = useApiQuery(siteInfo, undefined, { quiet: true, staleTime: Infinity, gcTime: Infinity });
  return q.data?.data?.brand ?? DEFAULT_BRAND;
}
