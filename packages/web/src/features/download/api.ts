import { downloadVersion, LIMITS } from '@hublink/contract';
import { useApiQuery } from '../../api/hooks';

/** The newest release of each platform (GET /api/download/version, open without sign-in). */
export const useReleases = () => useApiQuery(downloadVersion, undefined, { staleTime: LIMITS.documentCacheSeconds * 1000 });
