import { CODE, fmt, type SelfProfiles, SM, CM } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import SelfServicePage from './SelfServicePage';
import { memberSession } from './selfApi';

const ME: SelfProfiles = {
  router_name: 'zhangsan',
  login: 'zhangsan@abc123',
  phone: '13900000000',
  networks: [
    { network_number: 'N0001', network_name: '总部网络' },
    { network_number: 'N0002', network_name: '分部网络' },
  ],
};
const LINK = { url: 'https://vpn.example.com/api/v1/self/download?token=abc', import_url: 'openvpn://import-profile/https://vpn.example.com/api/v1/self/download?token=abc', expires_in: 600 };

const render = (route = '/self') => renderWithProviders(<SelfServicePage />, { route, path: '/self' });

async function signIn(login = 'zhangsan@abc123', password = 'secret1') {
  await userEvent.type(screen.getByLabelText(SM.selfLoginLabel), login);
  await userEvent.type(screen.getByLabelText(CM.connectPassword), password);
  await userEvent.click(screen.getByRole('button', { name: new RegExp(SM.selfSignIn) }));
}

describe('SelfServicePage', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => sessionStorage.clear());

  it('shows the form’s messages before any call is made', async () => {
    const api = mockApi({});
    render();
    await userEvent.click(screen.getByRole('button', { name: new RegExp(SM.selfSignIn) }));
    expect(await screen.findByText(SM.selfLoginRequired)).toBeInTheDocument();
    expect(screen.getByText(SM.selfPasswordRequired)).toBeInTheDocument();
    expect(api.calls).toEqual([]);
  });

  it('shows a refused sign-in on the form, and signs in: the member’s networks, how to connect, its login', async () => {
    const api = mockApi({ '/self/login': refused(CM.clientWrongPassword), '/self/profiles': ok(ME) });
    render();
    await signIn('zhangsan@abc123', 'wrong-one');
    expect(await screen.findByText(CM.clientWrongPassword)).toBeInTheDocument();
    expect(memberSession.token()).toBeNull();

    api.answer('/self/login', ok({ token: 'member-token', expires_in: 1800 }));
    await userEvent.clear(screen.getByLabelText(CM.connectPassword));
    await userEvent.type(screen.getByLabelText(CM.connectPassword), 'secret1');
    await userEvent.click(screen.getByRole('button', { name: new RegExp(SM.selfSignIn) }));
    expect(await screen.findByRole('region', { name: '总部网络' })).toBeInTheDocument();
    expect(screen.getByRole('region', { name: '分部网络' })).toBeInTheDocument();
    expect(screen.getByText(SM.selfHowDesktop)).toBeInTheDocument();
    expect(screen.getByText(fmt(SM.selfUsernameLine, { value: fmt(CM.profileUsernameHint, { login: ME.login, phone: ME.phone }) }))).toBeInTheDocument();
    expect(api.callsTo('/self/login').at(-1)!.body).toEqual({ login: 'zhangsan@abc123', password: 'secret1' });
    expect(memberSession.token()).toBe('member-token');
  });

  it('makes a single-use link for a network and shows it as a QR code, a link to copy and OpenVPN Connect’s import link', async () => {
    memberSession.set({ token: 'member-token', expires_in: 1800 });
    const api = mockApi({ '/self/profiles': ok(ME), '/self/link': ok(LINK) });
    render();
    const card = await screen.findByRole('region', { name: '总部网络' });
    await userEvent.click(within(card).getByRole('button', { name: new RegExp(SM.selfQrNew) }));
    const qr = await within(card).findByRole('group', { name: fmt(SM.selfQrFor, { name: '总部网络' }) });
    expect(qr.querySelector('.ant-qrcode')).not.toBeNull();
    expect(within(qr).getByRole('textbox')).toHaveValue(LINK.url);
    expect(within(qr).getByRole('link', { name: new RegExp(SM.selfImportInApp) })).toHaveAttribute('href', LINK.import_url);
    expect(api.callsTo('/self/link')[0]!.body).toEqual({ network_number: 'N0001' });
    expect(within(card).getByRole('button', { name: new RegExp(SM.selfQrRenew) })).toBeInTheDocument();
  });

  it('goes back to the form with the reason when the session is gone', async () => {
    memberSession.set({ token: 'stale', expires_in: 1800 });
    mockApi({ '/self/profiles': refused(SM.selfSessionExpired, CODE.tokenInvalid) });
    render();
    expect(await screen.findByText(SM.selfSessionExpired)).toBeInTheDocument();
    expect(screen.getByLabelText(SM.selfLoginLabel)).toBeInTheDocument();
    expect(memberSession.token()).toBeNull();
  });

  it('redeems the ticket a source sign-in brings back, with the verifier it began with, once', async () => {
    sessionStorage.setItem('hublink.self.verifier', 'v'.repeat(43));
    const api = mockApi({ '/self/ticket': ok({ token: 'from-source', expires_in: 1800 }), '/self/profiles': ok({ ...ME, networks: [] }) });
    const page = render('/self?ticket=T1');
    expect(await screen.findByText(SM.selfNoNetwork)).toBeInTheDocument();
    expect(api.callsTo('/self/ticket')).toEqual([expect.objectContaining({ body: { ticket: 'T1', code_verifier: 'v'.repeat(43) } })]);
    await waitFor(() => expect(page.location()).toBe('/self'));
    expect(memberSession.token()).toBe('from-source');
  });

  it('offers the sources of the tenant the link names, and says why a source sign-in failed', async () => {
    mockApi({ '/auth_source/sources': ok([{ id: 3, type: 'feishu', name: '飞书登录' }]) });
    render(`/self?code=ABCD2345&error=access_denied&error_description=${encodeURIComponent('账号已禁用')}`);
    expect(await screen.findByRole('button', { name: fmt(SM.selfSourceSignIn, { name: '飞书登录' }) })).toBeInTheDocument();
    expect(screen.getByText(fmt(SM.selfSourceFailed, { reason: '账号已禁用' }))).toBeInTheDocument();
  });
});
