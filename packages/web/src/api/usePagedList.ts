import { useState } from 'react';
import type { DataOf, Endpoint, QueryOf } from '@hublink/contract';
import type { CallOptions } from './client';
import { useApiQuery } from './hooks';

/**
 * Page and search state of a list call plus its query; searching goes back to page 1.
 * Pair with <PagedTable list={list} searchable />.
 */
export function usePagedList<E extends Endpoint>(endpoint: E, extra: Partial<QueryOf<E>> = {}, opts: CallOptions = {}) {
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');
  const query = useApiQuery(endpoint, { page, ...(text ? { search: text } : {}), ...extra } as QueryOf<E>, opts);
  return {
    page,
    setPage,
    searchText: text,
    search: (t: string) => {
      setText(t);
      setPage(1);
    },
    rows: query.data?.data as DataOf<E> | undefined,
    total: query.data?.count ?? 0,
    loading: query.isFetching,
    refetch: query.refetch,
  };
}
