import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { session, sessionNotice } from '../../api/session';
import { mockApi, ok, refused, type MockAnswer } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import LoginPage from './LoginPage';

const user = {
  nickname: '小林',
  username: 'lin2024',
  ram: 0 as const,
  user_phone: '+86 13800000000',
  user_email: '',
  message_count: 2,
  sign: 'abc123',
  config: { software_auth_source: 0 },
  auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
  role: null,
};

/** Each captcha request gets a new image and uniqid. */
function api(answerLogin: MockAnswer<'/login/authorization'> = () => ok({ access_token: 'tok-1', token_expire_time: 7200, user })) {
  let n = 0;
  return mockApi({
    '/verify/code': () => {
      n += 1;
      return ok({ content: `data:image/svg+xml;base64,img${n}`, uniqid: `u${n}` });
    },
    '/login/authorization': answerLogin,
    '/login/ram': answerLogin,
  });
}

const submitButton = () => screen.getByRole('button', { name: /登\s*录/ });

async function fill(username: string, password: string, code: string) {
  const u = userEvent.setup({ delay: null });
  if (username) await u.type(screen.getByLabelText('账号'), username);
  if (password) await u.type(screen.getByLabelText('密码'), password);
  if (code) await u.type(screen.getByLabelText('验证码'), code);
  return u;
}

describe('LoginPage', () => {
  // The session also lives in a cookie, which outlives the storage cleared between tests.
  beforeEach(() => session.clear());

  it('shows the spec messages for empty fields before any login call', async () => {
    const m = api();
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.click(submitButton());
    await shows(M.usernameRequired);
    await shows(M.passwordRequired);
    await shows(M.captchaRequired);
    expect(m.callsTo('/login/authorization')).toHaveLength(0);
  });

  it('requires a 4-character captcha and a 6-18 password', async () => {
    const m = api();
    renderWithProviders(<LoginPage />, { route: '/login' });
    const u = await fill('lin2024', '123', 'ab1');
    await u.click(submitButton());
    await shows(M.captchaLength);
    await shows(M.passwordLength);
    expect(m.callsTo('/login/authorization')).toHaveLength(0);
  });

  it('signs in, stores the session and follows a same-site redirect', async () => {
    const m = api();
    const r = renderWithProviders(<LoginPage />, { route: '/login?redirect=%2Fnetwork%2Flists' });
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toHaveAttribute('src', 'data:image/svg+xml;base64,img1'));
    expect(screen.getByRole('heading', { name: M.loginTitle })).toBeInTheDocument();
    const u = await fill(' lin2024 ', 'secret123', 'Ab12');
    // Enter in the captcha field submits.
    await u.type(screen.getByLabelText('验证码'), '{Enter}');

    await waitFor(() => expect(r.location()).toBe('/network/lists'));
    expect(m.callsTo('/login/authorization')).toHaveLength(1);
    expect(m.callsTo('/login/authorization')[0]!.body).toEqual({ username: 'lin2024', password: 'secret123', code: 'Ab12', uniqid: 'u1' });
    expect(session.token()).toBe('tok-1');
    expect(session.expiresAt()).toBeGreaterThan(Date.now() + 7000 * 1000);
    expect(session.user()).toEqual(user);
  });

  it('ignores a redirect to another site and goes to /', async () => {
    api();
    const r = renderWithProviders(<LoginPage />, { route: '/login?redirect=%2F%2Fevil.example%2Fx' });
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toBeInTheDocument());
    const u = await fill('lin2024', 'secret123', 'Ab12');
    await u.click(submitButton());
    await waitFor(() => expect(r.location()).toBe('/'));
  });

  it('on failure clears the captcha and loads a new image, and stays', async () => {
    const m = api(() => refused(M.loginFailed));
    const r = renderWithProviders(<LoginPage />, { route: '/login' });
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toHaveAttribute('src', 'data:image/svg+xml;base64,img1'));
    const u = await fill('lin2024', 'wrongpass', 'Ab12');
    await u.click(submitButton());

    await waitFor(() => expect(screen.getByAltText('图形验证码')).toHaveAttribute('src', 'data:image/svg+xml;base64,img2'));
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    expect(screen.getByLabelText('账号')).toHaveValue('lin2024');
    await shows(M.loginFailed);
    expect(session.token()).toBeNull();
    expect(r.location()).toBe('/login');

    // The next attempt answers the new captcha.
    await u.type(screen.getByLabelText('验证码'), 'Cd34');
    await u.click(submitButton());
    await waitFor(() => expect(m.callsTo('/login/authorization')).toHaveLength(2));
    expect(m.callsTo('/login/authorization')[1]!.body).toMatchObject({ code: 'Cd34', uniqid: 'u2' });
  });

  it('clicking the image loads a new captcha', async () => {
    const m = api();
    renderWithProviders(<LoginPage />, { route: '/login' });
    const img = await screen.findByAltText('图形验证码');
    await userEvent.click(img);
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toHaveAttribute('src', 'data:image/svg+xml;base64,img2'));
    expect(m.callsTo('/verify/code')).toHaveLength(2);
  });

  it('switches to sub-account login and back in the URL, keeping the redirect', async () => {
    api();
    const r = renderWithProviders(<LoginPage />, { route: '/login?redirect=%2Fnetwork%2Flists' });
    expect(screen.getByRole('heading', { name: M.loginTitle })).toBeInTheDocument();
    await userEvent.click(screen.getByText(M.ramLoginTitle));
    expect(screen.getByRole('heading', { name: M.ramLoginTitle })).toBeInTheDocument();
    expect(r.location()).toBe('/login?redirect=%2Fnetwork%2Flists&mode=ram');
    await userEvent.click(screen.getByText('主账号登录'));
    expect(screen.getByRole('heading', { name: M.loginTitle })).toBeInTheDocument();
    expect(r.location()).toBe('/login?redirect=%2Fnetwork%2Flists');
  });

  it('opens in sub-account mode at /login?mode=ram (a reload stays there), without recovery or registration', async () => {
    api();
    renderWithProviders(<LoginPage />, { route: '/login?mode=ram' });
    expect(screen.getByRole('heading', { name: M.ramLoginTitle })).toBeInTheDocument();
    expect(screen.getByText(M.ramLoginHint)).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: M.forgotPassword })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: M.registerTitle })).not.toBeInTheDocument();
    await userEvent.click(screen.getByText('主账号登录'));
    expect(screen.getByRole('link', { name: M.forgotPassword })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: M.registerTitle })).toBeInTheDocument();
  });

  it('signs a sub-account in from /login?mode=ram and follows the redirect', async () => {
    const m = api();
    const r = renderWithProviders(<LoginPage />, { route: '/login?mode=ram&redirect=%2Frouter%2Flists' });
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toBeInTheDocument());
    const u = await fill('ops@acme', 'secret123', 'Ab12');
    await u.click(submitButton());
    await waitFor(() => expect(r.location()).toBe('/router/lists'));
    expect(m.callsTo('/login/ram')).toHaveLength(1);
    expect(m.callsTo('/login/authorization')).toHaveLength(0);
  });

  it('posts a sub-account login to /login/ram', async () => {
    const m = api();
    renderWithProviders(<LoginPage />, { route: '/login' });
    await userEvent.click(screen.getByText(M.ramLoginTitle));
    await waitFor(() => expect(screen.getByAltText('图形验证码')).toBeInTheDocument());
    const u = await fill('ops@acme', 'secret123', 'Ab12');
    await u.click(submitButton());
    await waitFor(() => expect(m.callsTo('/login/ram')).toHaveLength(1));
    expect(m.callsTo('/login/ram')[0]!.body).toMatchObject({ username: 'ops@acme' });
    expect(m.callsTo('/login/authorization')).toHaveLength(0);
  });

  it('links to recovery and registration', () => {
    api();
    renderWithProviders(<LoginPage />, { route: '/login' });
    expect(screen.getByRole('link', { name: '忘记密码' })).toHaveAttribute('href', '/reset');
    expect(screen.getByRole('link', { name: '注册账号' })).toHaveAttribute('href', '/register');
  });
});

describe('LoginPage after a session ended', () => {
  beforeEach(() => session.clear());

  it('says why the session ended (the reload that ended it does not wipe it), and forgets it once signed in', async () => {
    sessionNotice.set(M.tokenExpired);
    api();
    renderWithProviders(<LoginPage />, { route: '/login?redirect=%2Fnetwork%2Flists' });
    expect(screen.getByRole('alert')).toHaveTextContent('登录已过期，请重新登录!');
    const u = await fill('lin2024', 'secret123', 'ab12');
    await u.click(submitButton());
    await waitFor(() => expect(session.token()).toBe('tok-1'));
    expect(sessionNotice.get()).toBeNull();
  });
});
