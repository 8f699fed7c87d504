import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, theme } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, useState, type ReactNode } from 'react';
import { bindNotifier } from '../api/notify';
import { cspNonce } from './cspNonce';
import { PrefsProvider, usePrefs } from './prefs';
import { usePrefersReducedMotion } from './reducedMotion';

/** One query client per app: envelope errors are final (the client already toasted them). */
export const createQueryClient = () =>
  new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false },
      mutations: { retry: false },
    },
  });

/** Hands the themed message instance of antd's <App> to the toasts of api/notify. */
function NotifierBinding() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    bindNotifier(message);
    return () => bindNotifier(null);
  }, [message]);
  return null;
}

/** The page's CSP nonce (see app/cspNonce), read once: antd's style elements carry it. */
const csp = { nonce: cspNonce() };

function ThemedApp({ children }: { children: ReactNode }) {
  const { size } = usePrefs();
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      csp={csp}
      locale={zhCN}
      componentSize={size === 'middle' ? 'medium' : size}
      theme={{ algorithm: theme.defaultAlgorithm, token: { borderRadius: 6, motion: !reducedMotion } }}
    >
      <AntApp>
        <NotifierBinding />
        {children}
      </AntApp>
    </ConfigProvider>
  );
}

/** Everything a screen needs around it: queries, antd locale and theme, toasts, preferences. */
export function Providers({ children, queryClient }: { children: ReactNode; queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <PrefsProvider>
        <ThemedApp>{children}</ThemedApp>
      </PrefsProvider>
    </QueryClientProvider>
  );
}
