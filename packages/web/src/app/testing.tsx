import type { Brand, UserMessage } from '@hublink/contract';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { Providers, createQueryClient } from './providers';
import { toRouteObjects } from './router';
import { NOT_FOUND_PATH } from './paths';
import { ROUTES, type PageRoute } from './routes';

// Test helpers for the shell: the whole app in a memory router, with pages replaced by stand-ins.

export const mainUser: UserMessage = {
  nickname: '小林',
  username: 'lin2024',
  ram: 0,
  user_phone: '+86 13800000000',
  user_email: 'lin@example.com',
  message_count: 3,
  sign: 'abc123',
  config: { software_auth_source: 0 },
  auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
  role: null,
};

export const ramUser: UserMessage = { ...mainUser, nickname: '小王', username: 'wang@abc123', ram: 1 };

export const ownBrand: Brand = { name: '云联', logo: 'blue', own: true, filing: '京ICP备00000000号' };
export const otherBrand: Brand = { name: '合作伙伴', logo: 'green', own: false, filing: '沪ICP备11111111号' };

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
