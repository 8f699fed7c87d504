import { routerMessages } from '@hublink/contract';
import { useState } from 'react';
import { toast } from '../api/notify';

/**
 * A list page's export button: an empty list is not exported (routerMessages.exportEmpty), the button spins while
 * the file is made, and routerMessages.exported says when it is saved (save answers false when it was not).
 */
export function useListExport(list: { rows: readonly unknown[] | undefined; total: number }, save: () => Promise<boolean>) {
  const [exporting, setExporting] = useState(false);
  const run = async () => {
    if (list.rows !== undefined && list.total === 0) {
      toast.warning(routerMessages.exportEmpty);
      return;
    }
    setExporting(true);
    try {
      if (await save()) toast.success(routerMessages.exported);
    } finally {
      setExporting(false);
    }
  };
  return { exporting, run };
}
