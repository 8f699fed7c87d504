import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers, createQueryClient } from './providers';
import { toRouteObjects } from './router';
import { NOT_FOUND_PATH } from '../session/paths';
import { ROUTES, type PageRoute } from './routes';

// Test helpers for the shell: the whole app in a memory router, with pages replaced by stand-ins.

/** The real route table with every page but 404 replaced by a stand-in naming its path. */
export const stubTable: PageRoute[] = ROUTES.map((r) =>
  r.path === NOT_FOUND_PATH ? r : { ...r, page: () => <p>{`page ${r.path}`}</p> },
);

/** Renders the app (guard, layouts, providers) at a URL. */
export function renderApp(url: string, routes: RouteObject[] = toRouteObjects(stubTable)) {
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const result = render(
    <Providers queryClient={createQueryClient()}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return {
    ...result,
    router,
    /** Current pathname plus search. */
    location: () => router.state.location.pathname + router.state.location.search,
  };
}
