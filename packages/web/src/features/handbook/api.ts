import { documentInfo, documentMenu, LIMITS } from '@hublink/contract';
import { useApiQuery } from '../../api/hooks';

/** The menu and documents change only when the operator imports the handbook again. */
const FRESH_MS = LIMITS.documentCacheSeconds * 1000;

export const useDocumentMenu = () => useApiQuery(documentMenu, undefined, { staleTime: FRESH_MS });

/** One document; a document removed meanwhile (204) shows its message and the page stays. */
export const useDocument = (id: number, enabled: boolean) => useApiQuery(documentInfo, { id }, { enabled, staleTime: FRESH_MS, on204: 'stay' });
