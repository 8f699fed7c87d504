import { LIMITS } from '@hublink/contract';
import { useEffect } from 'react';

/** After the last row of a later page is deleted, the list steps back to the page that still has rows. */
export function useStepBackWhenEmpty(list: { rows: unknown[] | undefined; total: number; page: number; setPage: (p: number) => void }) {
  const { rows, total, page, setPage } = list;
  useEffect(() => {
    if (rows && rows.length === 0 && total > 0 && page > 1) setPage(Math.max(1, Math.ceil(total / LIMITS.pageSize)));
  }, [rows, total, page, setPage]);
}
