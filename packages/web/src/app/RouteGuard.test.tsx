import { LIMITS, M } from '@hublink/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { browser } from '../api/client';
import { toast } from '../api/notify';
import { session } from '../api/session';
import { mockApi, ok, refused, type MockAnswer } from '../test/mockApi';
import { OPEN_PATHS } from '../session/guard';
import { toRouteObjects } from './router';
import { ROUTES } from './routes';
import { mainUser, otherBrand, ramUser } from '../test/sessionFixtures';
import { renderApp } from './testing';

const HOUR = 3600;

function api(accountInfo: MockAnswer<'/account/info'> = ok(mainUser)) {
  return mockApi({
    '/site/info': ok({ brand: otherBrand }),
    '/account/info': accountInfo,
    '/login/logout': ok(null),
  });
}

const signIn = (token = 'tok-main') => {
  session.setToken(token, HOUR);
  session.setUser(mainUser);
};

/** Authorization header of every call to a path. */
const authsTo = (m: ReturnType<typeof mockApi>, path: string) =>
  m.fetch.mock.calls
    .filter(([url]) => String(url).includes(path))
    .map(([, init]) => (init?.headers as Record<string, string> | undefined)?.Authorization);

beforeEach(() => {
  session.clear();
  vi.restoreAllMocks();
});

describe('route guard (spec 1 §2.2)', () => {
  it('sends a visitor without a token to /login with the way back', async () => {
    api();
    const app = renderApp('/network/detail?network_number=N1');
    await waitFor(() => expect(app.location()).toBe('/login?redirect=%2Fnetwork%2Fdetail%3Fnetwork_number%3DN1'));
    expect(await screen.findByText('page /login')).toBeInTheDocument();
  });

  it.each(OPEN_PATHS)('opens %s without a token', async (path) => {
    api();
    const app = renderApp(path);
    expect(await screen.findByText(`page ${path}`)).toBeInTheDocument();
    expect(app.location()).toBe(path);
  });

  it('keeps a signed-in user away from the login paths', async () => {
    api();
    signIn();
    const app = renderApp('/login');
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(await screen.findByText('page /dashboard')).toBeInTheDocument();

    const again = renderApp('/login/index');
    await waitFor(() => expect(again.location()).toBe('/dashboard'));
  });

  it('redirects / to /dashboard and unknown paths to /404/index', async () => {
    api();
    signIn();
    const home = renderApp('/');
    await waitFor(() => expect(home.location()).toBe('/dashboard'));
    home.unmount();

    const lost = renderApp('/no/such/page');
    await waitFor(() => expect(lost.location()).toBe('/404/index'));
    expect(await screen.findByText(M.pageNotFound)).toBeInTheDocument();
  });

  it('sets "<page title> - <brand>" after every navigation', async () => {
    api();
    signIn();
    const app = renderApp('/network/lists');
    await waitFor(() => expect(document.title).toBe(`网络列表 - ${otherBrand.name}`));
    await app.router.navigate('/account/message');
    await waitFor(() => expect(document.title).toBe(`消息中心 - ${otherBrand.name}`));
  });

  it('loads the user message when signed in but not loaded', async () => {
    const m = api();
    session.setToken('tok-main', HOUR);
    renderApp('/dashboard');
    await waitFor(() => expect(session.user()).toEqual(mainUser));
    expect(m.callsTo('/account/info')).toHaveLength(1);
  });
});

describe('authorised login by query token (spec 1 §2.2, §4)', () => {
  it('a token in the query forces logout and goes to /login?token=…', async () => {
    // The authorisation never answers here, so the redirect itself can be observed.
    const m = api(() => new Promise<never>(() => {}));
    signIn('tok-old');
    const app = renderApp('/network/lists?token=tok-new');
    await waitFor(() => expect(app.location()).toBe('/login?token=tok-new'));
    expect(await screen.findByText(M.authorizing)).toBeInTheDocument();
    expect(session.token()).toBe('tok-new');
    expect(authsTo(m, '/account/info')).toEqual(['Bearer tok-new']);
  });

  it('stores the token for one hour, fetches the user and goes to the console', async () => {
    const success = vi.spyOn(toast, 'success');
    // The user message is held until the overlay has been seen: answered at once, it could be gone
    // before the check.
    let answer = () => {};
    const held = new Promise<void>((resolve) => (answer = resolve));
    const m = api(async () => {
      await held;
      return ok(mainUser);
    });
    const before = Date.now();
    const app = renderApp('/login?token=tok-q');
    expect(await screen.findByText(M.authorizing)).toBeInTheDocument();
    answer();

    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(success).toHaveBeenCalledWith(M.authorizeSuccess);
    expect(session.token()).toBe('tok-q');
    expect(session.user()).toEqual(mainUser);
    expect(session.expiresAt()).toBeGreaterThanOrEqual(before + LIMITS.queryTokenTtlSeconds * 1000);
    expect(session.expiresAt()).toBeLessThanOrEqual(Date.now() + LIMITS.queryTokenTtlSeconds * 1000);
    expect(authsTo(m, '/account/info')[0]).toBe('Bearer tok-q');
    expect(screen.queryByText(M.authorizing)).not.toBeInTheDocument();
  });

  it.each([
    ['a refused token', refused(M.tokenInvalid, 2001)],
    ['any other refusal', refused(M.internalError, 500)],
  ])('%s logs out and returns to /login with 授权失败', async (_name, answer) => {
    const failed = vi.spyOn(toast, 'error');
    const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
    signIn('tok-old');
    const m = api(answer);
    const app = renderApp('/login?token=tok-bad');
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(failed).toHaveBeenCalledWith(M.authorizeFailed);
    expect(session.token()).toBeNull();
    expect(session.user()).toBeNull();
    expect(await screen.findByText('page /login')).toBeInTheDocument();
    // Checked once, without the reload a refused token would cause anywhere else (it would loop here).
    expect(m.callsTo('/account/info')).toHaveLength(1);
    expect(reload).not.toHaveBeenCalled();
  });
});

describe('page access (the route table’s access)', () => {
  const signInAs = (user: typeof mainUser) => {
    session.setToken('tok', HOUR);
    session.setUser(user);
  };
  const withNetworkCreate = {
    ...ramUser,
    role: {
      'easylink.router': { create: 0, edit: 0, delete: 0 },
      'easylink.network': { create: 1, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    },
  } satisfies typeof mainUser;

  it.each(['/ram/index', '/ram/role', '/account/info', '/account', '/account/password', '/logs/software_login'])(
    'shows a sub-account the 403 page at %s, and the real page makes no call',
    async (path) => {
      const m = api(ok(ramUser));
      signInAs(ramUser);
      const app = renderApp(path, toRouteObjects(ROUTES));
      expect(await screen.findByText(M.pageForbidden)).toBeInTheDocument();
      expect(app.location()).toBe(path);
      const area = `/${path.split('/')[1]}/`;
      expect(m.calls.filter((c) => c.path.startsWith(area) && c.path !== '/account/info')).toEqual([]);
      expect(m.calls.filter((c) => c.path === '/logs/software_login')).toEqual([]);
    },
  );

  it('leads from the 403 page back to the overview', async () => {
    api(ok(ramUser));
    signInAs(ramUser);
    const app = renderApp('/ram/index');
    fireEvent.click(await screen.findByRole('button', { name: M.backToOverview }));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(await screen.findByText('page /dashboard')).toBeInTheDocument();
  });

  it('lets the real page make its calls for a main account (what the sub-account is spared)', async () => {
    const m = api();
    signInAs(mainUser);
    renderApp('/ram/index', toRouteObjects(ROUTES));
    await waitFor(() => expect(m.callsTo('/ram/lists').length).toBeGreaterThan(0));
    expect(screen.queryByText(M.pageForbidden)).not.toBeInTheDocument();
  });

  it('shows a main account the page', async () => {
    api();
    signInAs(mainUser);
    renderApp('/ram/index');
    expect(await screen.findByText('page /ram/index')).toBeInTheDocument();
    expect(screen.queryByText(M.pageForbidden)).not.toBeInTheDocument();
  });

  it('shows a sub-account a permission page only when its role grants it', async () => {
    api(ok(withNetworkCreate));
    signInAs(withNetworkCreate);
    const app = renderApp('/network/create');
    expect(await screen.findByText('page /network/create')).toBeInTheDocument();
    await app.router.navigate('/network/edit?network_number=N1');
    expect(await screen.findByText(M.pageForbidden)).toBeInTheDocument();
    expect(screen.queryByText('page /network/edit')).not.toBeInTheDocument();
  });

  it('shows neither the page nor the 403 page until the user is loaded, then decides', async () => {
    let answer: (env: ReturnType<typeof ok<typeof ramUser>>) => void = () => {};
    api(() => new Promise((resolve) => (answer = resolve)));
    session.setToken('tok', HOUR);
    renderApp('/ram/index');
    expect(await screen.findByText(M.pageLoading)).toBeInTheDocument();
    expect(screen.queryByText('page /ram/index')).not.toBeInTheDocument();
    expect(screen.queryByText(M.pageForbidden)).not.toBeInTheDocument();
    answer(ok(ramUser));
    expect(await screen.findByText(M.pageForbidden)).toBeInTheDocument();
  });
});
