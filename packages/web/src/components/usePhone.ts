import { theme } from 'antd';
import { useCallback, useSyncExternalStore } from 'react';

/** True below antd's `md` breakpoint (phones): the sidebar becomes a drawer and the top bar shows icons. */
export function usePhone(): boolean {
  const { token } = theme.useToken();
  const query = `(max-width: ${token.screenSMMax}px)`;
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches, () => false);
}
