import { LIMITS } from '@hublink/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../api/session';
import { warmRoute, warmRoutes } from './router';

const HOUR = 3600;

describe('the first calls of a route start with it', () => {
  let fetch: ReturnType<typeof vi.fn>;
  const asked = () => fetch.mock.calls.map(([url]) => String(url));

  beforeEach(() => {
    session.clear();
    fetch = vi.fn(() => new Promise<Response>(() => {}));
    vi.stubGlobal('fetch', fetch);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    session.clear();
  });

  it('the sign-in page asks for its captcha when signed out', () => {
    warmRoute({ pathname: '/login', search: '?redirect=%2Fdashboard' });
    expect(asked()).toEqual(['/api/v1/verify/code']);
  });

  it('not when signed in (the guard leaves the page), nor for an authorised login', () => {
    warmRoute({ pathname: '/login', search: '?token=abc' });
    session.setToken('tok', HOUR);
    warmRoute({ pathname: '/login', search: '' });
    expect(asked()).toEqual([]);
  });

  it("a signed-in page's calls go with a token that is not about to be refreshed, and only then", () => {
    session.setToken('tok', HOUR);
    warmRoute({ pathname: '/dashboard', search: '' });
    expect(asked()).toEqual(['/api/v1/account/info', '/api/v1/dashboard/overview']);
    expect(fetch.mock.calls[0]![1]).toMatchObject({ headers: { Authorization: 'Bearer tok' } });
    fetch.mockClear();
    session.setToken('tok', 60);
    warmRoute({ pathname: '/dashboard', search: '' });
    expect(asked()).toEqual([]);
  });

  it('a new query on the same page asks only for the calls it changes', () => {
    let move!: (state: { location: { pathname: string; search: string } }) => void;
    const router = { state: { location: { pathname: '/login', search: '?redirect=%2Fdashboard' } }, subscribe: (fn: typeof move) => ((move = fn), () => {}) };
    warmRoutes(router);
    fetch.mockClear();
    // The sub-account form: the page asks for its own captcha, the route must not ask for another.
    move({ location: { pathname: '/login', search: '?redirect=%2Fdashboard&mode=ram' } });
    expect(asked()).toEqual([]);
    session.setToken('tok', HOUR);
    move({ location: { pathname: '/network/detail', search: '?network_number=N1' } });
    move({ location: { pathname: '/network/detail', search: '?network_number=N1&tab=links' } });
    move({ location: { pathname: '/network/detail', search: '?network_number=N2' } });
    // The detail's first page, as the page asks it (a whole network of 5,000 members is 3 MB).
    const firstPage = (n: string) => `/api/v1/network/info?network_number=${n}&member_page=1&link_page=1&page_size=${LIMITS.pageSize}`;
    expect(asked()).toEqual([firstPage('N1'), firstPage('N2')]);
  });

  it("the console's first address asks for the site's brand too", () => {
    const router = { state: { location: { pathname: '/login', search: '' } }, subscribe: () => () => {} };
    warmRoutes(router);
    expect(asked().sort()).toEqual(['/api/v1/site/info', '/api/v1/verify/code']);
  });
});
