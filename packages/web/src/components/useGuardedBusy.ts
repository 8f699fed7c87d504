import { LIMITS } from '@hublink/contract';
import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * The submit guard, written once for every dialog: a loading flag for one job at a time that resets
 * after `guardMs` even if the job never ends (spec 1 §9; spec 3 §9: 10 s for bulk delete and binding).
 */
export function useGuardedBusy(guardMs: number = LIMITS.submitGuardMs) {
  const [busy, setBusy] = useState(false);
  const running = useRef(false);
  const guard = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(guard.current), []);

  const run = useCallback(
    async (job: () => Promise<void>) => {
      if (running.current) return;
      running.current = true;
      setBusy(true);
      guard.current = setTimeout(() => {
        running.current = false;
        setBusy(false);
      }, guardMs);
      try {
        await job();
      } finally {
        clearTimeout(guard.current);
        running.current = false;
        setBusy(false);
      }
    },
    [guardMs],
  );
  return { busy, run };
}
