import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen, waitFor, type RenderResult } from '@testing-library/react';
import { expect } from 'vitest';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/locale/zh_CN';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { bindNotifier } from '../api/notify';

// antd forms validate and animate asynchronously; on a busy machine a second is not always enough.
configure({ asyncUtilTimeout: 5000 });

export interface RenderOptions {
  /** The URL the router starts at, e.g. '/login?redirect=/network/lists'. */
  route?: string;
  /** The route pattern the element is mounted on; any other path renders nothing but the probe. */
  path?: string;
}

export interface Rendered extends RenderResult {
  queryClient: QueryClient;
  /** The router's current pathname plus search. */
  location: () => string;
}

/** Hands the App's message instance to the API client, as the real providers do. */
function NotifierBinding() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    bindNotifier(message);
    return () => bindNotifier(null);
  }, [message]);
  return null;
}

function LocationProbe() {
  const loc = useLocation();
  return <output data-testid="location" hidden>{loc.pathname + loc.search}</output>;
}

export function Providers({ children, route = '/', queryClient }: { children: ReactNode; route?: string; queryClient: QueryClient }) {
  return (
    <ConfigProvider locale={zhCN}>
      <AntApp>
        <NotifierBinding />
        <QueryClientProvider client={queryClient}>
          <MemoryRouter initialEntries={[route]}>
            {children}
            <LocationProbe />
          </MemoryRouter>
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export const testQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });

/**
 * Renders a page inside the console's providers (antd App with zh_CN, TanStack Query, a memory router).
 * Navigations away from `path` leave the page; `location()` tells where the router went.
 */
export function renderWithProviders(ui: ReactElement, { route = '/', path }: RenderOptions = {}): Rendered {
  const queryClient = testQueryClient();
  const pattern = path ?? route.split('?')[0] ?? '/';
  const result = render(
    <Providers route={route} queryClient={queryClient}>
      <Routes>
        <Route path={pattern} element={ui} />
        <Route path="*" element={null} />
      </Routes>
    </Providers>,
  );
  return {
    ...result,
    queryClient,
    location: () => result.getByTestId('location').textContent ?? '',
  };
}

/**
 * Waits until the text is on screen. antd re-creates validation messages as it re-validates, so a node
 * found a moment ago may already be replaced; this looks again on every try.
 */
export const shows = (text: string | RegExp) => waitFor(() => expect(screen.getAllByText(text)[0]).toBeInTheDocument());
