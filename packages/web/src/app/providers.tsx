import { SearchOutlined } from '@ant-design/icons';
import { BM } from '@hublink/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp, ConfigProvider, Empty, theme } from 'antd';
// The ES build of the locale: antd/locale/zh_CN is CommonJS and brings a second (CommonJS) copy of the pickers' locale.
import zhCN from 'antd/es/locale/zh_CN';
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

/**
 * antd's default blue (#1677ff) is 4.1:1 on white and its secondary grey 3.4:1: both under WCAG's
 * 4.5:1 for text. The same hue, a step darker (5.3:1 on white, 4.8:1 on the selected menu's tint),
 * and greys that keep 4.5:1 even on the page's #f5f5f5 background.
 */
const PRIMARY = '#1464e0';
const THEME_TOKENS = {
  borderRadius: 6,
  colorPrimary: PRIMARY,
  colorInfo: PRIMARY,
  colorLink: PRIMARY,
  colorTextTertiary: 'rgba(0, 0, 0, 0.57)',
  colorTextDescription: 'rgba(0, 0, 0, 0.57)',
  colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
  // Danger buttons and error, warning and success texts (antd's #ff4d4f is 3.3:1, #faad14 1.9:1).
  colorError: '#cf1322',
  colorWarningText: '#ad4e00',
  colorSuccessText: '#237804',
};
/** The unchecked switch's track carries white text (its labels): 1.8:1 on antd's light grey. */
const COMPONENT_TOKENS = {
  Switch: { colorTextQuaternary: 'rgba(0, 0, 0, 0.55)', colorTextTertiary: 'rgba(0, 0, 0, 0.65)' },
};

/** The search button of every Input.Search: its icon is its only content, so the icon carries the name. */
const INPUT_SEARCH = { searchIcon: <SearchOutlined aria-label={BM.searchLabel} /> };

/**
 * An empty table or list says the spec's one text (好像没有什么东西哦！) wherever it is, not antd's 暂无数据;
 * other components (a select's dropdown, a table's filter) keep antd's own.
 */
const renderEmpty = (component?: string) =>
  component === 'Table' || component === 'List' ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} /> : undefined;

function ThemedApp({ children }: { children: ReactNode }) {
  const { size } = usePrefs();
  const reducedMotion = usePrefersReducedMotion();
  return (
    <ConfigProvider
      csp={csp}
      locale={zhCN}
      inputSearch={INPUT_SEARCH}
      renderEmpty={renderEmpty}
      componentSize={size === 'middle' ? 'medium' : size}
      theme={{ algorithm: theme.defaultAlgorithm, token: { ...THEME_TOKENS, motion: !reducedMotion }, components: COMPONENT_TOKENS }}
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
