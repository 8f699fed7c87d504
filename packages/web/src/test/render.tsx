import type { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, type RenderResult } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { expect } from 'vitest';
import { PageRouteProvider } from '../app/PageRouteProvider';
import { createQueryClient, Providers } from '../app/providers';

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

function LocationProbe() {
  const loc = useLocation();
  return <output data-testid="location" hidden>{loc.pathname + loc.search}</output>;
}

/**
 * Renders a page inside the console's own providers (antd App with zh_CN and toasts, TanStack Query,
 * preferences) and a memory router, with the route entry of `path` given to the page as the router layer does.
 * Navigations away from `path` leave the page; `location()` tells where the router went.
 */
export function renderWithProviders(ui: ReactElement, { route = '/', path }: RenderOptions = {}): Rendered {
  const queryClient = createQueryClient();
  const pattern = path ?? route.split('?')[0] ?? '/';
  const result = render(
    <Providers queryClient={queryClient}>
      <MemoryRouter initialEntries={[route]}>
        <Routes>
          <Route path={pattern} element={<PageRouteProvider path={pattern}>{ui}</PageRouteProvider>} />
          <Route path="*" element={null} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
  return {
    ...result,
    queryClient,
    location: () => result.getByTestId('location').textContent ?? '',
  };
}

/** The console's own providers around a hook (renderHook's `wrapper`), with a query client of its own. */
export function ProvidersWrapper({ children }: { children: ReactNode }) {
  return <Providers>{children}</Providers>;
}

/**
 * Waits until the text is on screen. antd re-creates validation messages as it re-validates, so a node
 * found a moment ago may already be replaced; this looks again on every try.
 */
export const shows = (text: string | RegExp) => waitFor(() => expect(screen.getAllByText(text)[0]).toBeInTheDocument());
