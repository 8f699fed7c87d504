import { useEffect } from 'react';

/**
 * Spec 3 §4: when a later page comes back empty (the log shrank, or a page was asked past the end),
 * the previous page is loaded — never further back than the last page that has rows.
 */
export function useStepBack(list: { rows: readonly unknown[] | undefined; total: number; page: number; setPage: (p: number) => void }, pageSize: number) {
  const { rows, total, page, setPage } = list;
  useEffect(() => {
    if (rows && rows.length === 0 && page > 1) setPage(Math.max(1, Math.min(page - 1, Math.ceil(total / pageSize))));
  }, [rows, total, page, setPage, pageSize]);
}
