import { useCallback, useEffect, useRef } from 'react';

/** Runs a function after a delay (one at a time: a new one replaces the pending one); nothing runs after unmount. */
export function useLater() {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback((ms: number, run: () => void) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(run, ms);
  }, []);
}
