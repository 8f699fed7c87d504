import { M, fmt } from '@hublink/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prefs, session } from '../../api/session';
import { mockApi, ok, refused } from '../../test/mockApi';
import { mainUser, otherBrand, ownBrand, ramUser } from '../../test/sessionFixtures';
import { renderApp } from '../testing';
import type { Brand, UserMessage } from '@hublink/contract';

function open(user: UserMessage = mainUser, brand: Brand = ownBrand, url = '/dashboard') {
  const m = mockApi({
    '/site/info': ok({ brand }),
    '/account/info': ok(user),
    '/login/logout': ok(null, M.logoutSuccess),
    '/ram/password': ok(null, M.modified),
  });
  session.setToken('tok', 3600);
  session.setUser(user);
  return { m, app: renderApp(url) };
}

/** Types into a labelled field of a dialog (one change event, as a paste would). */
const fill = (dialog: HTMLElement, label: string, value: string) =>
  fireEvent.change(within(dialog).getByLabelText(label), { target: { value } });

const sider = () => document.querySelector('.ant-layout-sider')!;

beforeEach(() => session.clear());

describe('sidebar', () => {
  it('collapses and expands from the top bar and remembers it', async () => {
    const first = open();
    await screen.findByText('page /dashboard');
    expect(sider()).not.toHaveClass('ant-layout-sider-collapsed');

    await userEvent.click(screen.getByLabelText(M.collapseSidebar));
    expect(sider()).toHaveClass('ant-layout-sider-collapsed');
    expect(prefs.sidebarOpened()).toBe(false);

    first.app.unmount();
    open();
    await screen.findByText('page /dashboard');
    expect(sider()).toHaveClass('ant-layout-sider-collapsed');
    await userEvent.click(screen.getByLabelText(M.expandSidebar));
    expect(prefs.sidebarOpened()).toBe(true);
  });

  it('has the logo leading to /', async () => {
    open();
    const logo = await screen.findAllByRole('link', { name: ownBrand.name });
    expect(logo[0]).toHaveAttribute('href', '/');
  });
});

describe('settings panel', () => {
  it('changes and persists the component size and the sidebar', async () => {
    open();
    await screen.findByText('page /dashboard');
    const settings = screen.getByLabelText(M.settingsTitle);
    await userEvent.click(settings);
    const panel = await screen.findByRole('dialog');
    await userEvent.click(within(panel).getByText(M.sizeLarge));
    expect(prefs.size()).toBe('large');
    await waitFor(() => expect(settings).toHaveClass('ant-btn-lg'));

    await userEvent.click(within(panel).getByRole('switch'));
    expect(prefs.sidebarOpened()).toBe(false);
    expect(sider()).toHaveClass('ant-layout-sider-collapsed');
  });
});

describe('user menu', () => {
  it('shows my messages with the unread count and goes to the message centre', async () => {
    const { app } = open();
    await screen.findByText('page /dashboard');
    await userEvent.click(screen.getByText(mainUser.nickname));
    const item = await screen.findByText(M.myMessages);
    expect(within(item).getByText(String(mainUser.message_count))).toBeInTheDocument();
    expect(screen.queryByText(M.changePassword)).not.toBeInTheDocument();
    await userEvent.click(item);
    await waitFor(() => expect(app.location()).toBe('/account/message'));
  });

  it('asks before logging out and stays when cancelled', async () => {
    const { m, app } = open();
    await screen.findByText('page /dashboard');
    await userEvent.click(screen.getByText(mainUser.nickname));
    await userEvent.click(await screen.findByText(M.logoutAction));
    expect(await screen.findByRole('dialog', { name: M.confirmLogout })).toBeInTheDocument();
    await userEvent.click(screen.getByText(/^取\s*消$/));
    expect(m.callsTo('/login/logout')).toHaveLength(0);
    expect(session.token()).toBe('tok');
    expect(app.location()).toBe('/dashboard');
  });

  it('logs out after confirmation: calls logout, clears the session, goes to /login', async () => {
    const { m, app } = open();
    await screen.findByText('page /dashboard');
    await userEvent.click(screen.getByText(mainUser.nickname));
    await userEvent.click(await screen.findByText(M.logoutAction));
    await userEvent.click(await screen.findByText(/^确\s*定$/));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(m.callsTo('/login/logout')).toHaveLength(1);
    expect(session.token()).toBeNull();
    expect(session.user()).toBeNull();
    expect(await screen.findByText('page /login')).toBeInTheDocument();
  });
});

describe('sub-account password dialog', () => {
  const openDialog = async () => {
    const ctx = open(ramUser);
    await screen.findByText('page /dashboard');
    await userEvent.click(screen.getByText(ramUser.nickname));
    await userEvent.click(await screen.findByText(M.changePassword));
    return { ...ctx, dialog: await screen.findByRole('dialog') };
  };

  it('checks the fields with the spec messages before any call', async () => {
    const { m, dialog } = await openDialog();
    await userEvent.click(within(dialog).getByText(/^确\s*定$/));
    expect(await within(dialog).findByText(M.oldPasswordRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(M.newPasswordRequired)).toBeInTheDocument();
    expect(within(dialog).getByText(M.repeatPasswordRequired)).toBeInTheDocument();

    fill(dialog, M.oldPassword, '12345');
    fill(dialog, M.newPassword, 'abcdef1');
    fill(dialog, M.repeatPassword, 'abcdef2');
    await userEvent.click(within(dialog).getByText(/^确\s*定$/));
    expect(await within(dialog).findByText('必须6到18位')).toBeInTheDocument();
    expect(within(dialog).getByText(M.passwordMismatch)).toBeInTheDocument();
    expect(within(dialog).getByLabelText(M.newPassword)).toHaveAttribute('maxlength', '18');
    expect(m.callsTo('/ram/password')).toHaveLength(0);
  });

  it('posts /ram/password and logs the sub-account out', async () => {
    const { m, app, dialog } = await openDialog();
    fill(dialog, M.oldPassword, 'oldpass1');
    fill(dialog, M.newPassword, 'newpass1');
    fill(dialog, M.repeatPassword, 'newpass1');
    await userEvent.click(within(dialog).getByText(/^确\s*定$/));
    await waitFor(() => expect(app.location()).toBe('/login'));
    expect(m.callsTo('/ram/password')[0]!.body).toEqual({ old_password: 'oldpass1', password: 'newpass1', reset_password: 'newpass1' });
    expect(session.token()).toBeNull();
  });

  it('stays open and signed in when the server refuses', async () => {
    const { m, app, dialog } = await openDialog();
    m.answer('/ram/password', refused('旧密码错误'));
    fill(dialog, M.oldPassword, 'wrongpw1');
    fill(dialog, M.newPassword, 'newpass1');
    fill(dialog, M.repeatPassword, 'newpass1');
    await userEvent.click(within(dialog).getByText(/^确\s*定$/));
    expect(await screen.findByText('旧密码错误')).toBeInTheDocument();
    expect(session.token()).toBe('tok');
    expect(app.location()).toBe('/dashboard');
  });
});

describe('footer', () => {
  it('shows copyright and legal links on own hosts, with the filing number', async () => {
    open(mainUser, ownBrand);
    const footer = await screen.findByRole('contentinfo');
    await within(footer).findByText(fmt(M.copyright, { year: new Date().getFullYear(), name: ownBrand.name }));
    expect(within(footer).getByRole('link', { name: M.clauseLink })).toHaveAttribute('href', '/clause');
    expect(within(footer).getByRole('link', { name: M.privacyLink })).toHaveAttribute('href', '/privacy');
    expect(within(footer).getByRole('link', { name: M.handbookLink })).toHaveAttribute('href', '/handbook');
    // Help opens in a new tab like the menu's entry (spec 3 §2.12).
    expect(within(footer).getByRole('link', { name: M.handbookLink })).toHaveAttribute('target', '_blank');
    expect(within(footer).getByRole('link', { name: ownBrand.filing })).toHaveAttribute('href', 'https://beian.miit.gov.cn/');
  });

  it('shows only the filing number on other hosts', async () => {
    open(mainUser, otherBrand);
    const footer = await screen.findByRole('contentinfo');
    expect(await within(footer).findByRole('link', { name: otherBrand.filing })).toBeInTheDocument();
    expect(within(footer).queryByRole('link', { name: M.clauseLink })).not.toBeInTheDocument();
    expect(within(footer).queryByText(/Copyright/)).not.toBeInTheDocument();
  });
});

describe('phone width (below md)', () => {
  const wide = window.matchMedia;
  beforeEach(() => {
    window.matchMedia = (query: string) => ({ ...wide(query), matches: /max-width: 767px/.test(query) });
  });
  afterEach(() => {
    window.matchMedia = wide;
  });

  it('shows icons only for download and tickets and the avatar without the name', async () => {
    open();
    await screen.findByText('page /dashboard');
    expect(screen.getByRole('link', { name: M.navDownload })).toHaveTextContent(/^$/);
    expect(screen.getByRole('link', { name: M.navTickets })).toHaveTextContent(/^$/);
    expect(screen.queryByText(mainUser.nickname)).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: mainUser.nickname }));
    expect(await screen.findByText(M.myMessages)).toBeInTheDocument();
  });

  it('has no sidebar but a menu drawer that the top bar opens and a chosen page closes', async () => {
    const { app } = open(mainUser, ownBrand, '/account/info');
    await screen.findByText('page /account/info');
    expect(sider()).toBeNull();
    const button = screen.getByRole('button', { name: M.openMenu });
    await userEvent.click(button);
    const menu = await screen.findByRole('menu', { name: M.sideMenu });
    await userEvent.click(within(menu).getByText(M.routeDashboard));
    await waitFor(() => expect(app.location()).toBe('/dashboard'));
    expect(button).toHaveAttribute('aria-expanded', 'false');
  });
});
