import { M } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { session } from '../api/session';
import { mockApi, ok } from '../test/mockApi';
import { breadcrumbOf, menuKeyOf, menuPaths, visibleMenu } from './menu';
import { ROUTES } from './routes';
import { mainUser, otherBrand, ownBrand, ramUser } from '../test/sessionFixtures';
import { renderApp } from './testing';

const withAuthSource = { ...mainUser, config: { software_auth_source: 1 } };

describe('side menu (spec 1 §2.6)', () => {
  it('gives a main account every entry but auth source and help on a partner host', () => {
    expect(menuPaths(visibleMenu({ user: mainUser, brand: otherBrand }))).toEqual([
      '/dashboard',
      '/account/info',
      '/account/message',
      '/account/service',
      '/account/announcements',
      '/account/api_token',
      '/network/lists',
      '/network/fr_lists',
      '/network/ticket_lists',
      '/saas/router',
      '/router/lists',
      '/router/ldap',
      '/router/device_approval',
      '/monitor/setting',
      '/logs/software_login',
      '/logs/online',
      '/logs/connect',
      '/audit',
      '/ram/index',
      '/ram/role',
      '/ticket/lists',
    ]);
  });

  it('shows auth source only when software_auth_source is 1', () => {
    expect(menuPaths(visibleMenu({ user: withAuthSource, brand: otherBrand }))).toContain('/router/auth_source');
    expect(menuPaths(visibleMenu({ user: { ...mainUser, config: { software_auth_source: 2 } }, brand: otherBrand }))).not.toContain(
      '/router/auth_source',
    );
  });

  it('shows help documents on own hosts only', () => {
    expect(menuPaths(visibleMenu({ user: mainUser, brand: ownBrand })).at(-1)).toBe('/handbook');
    expect(menuPaths(visibleMenu({ user: mainUser, brand: otherBrand }))).not.toContain('/handbook');
  });

  it('reduces the menu for a sub-account: no account info, software login records, sub-accounts or roles', () => {
    const paths = menuPaths(visibleMenu({ user: { ...ramUser, config: { software_auth_source: 1 } }, brand: ownBrand }));
    for (const hidden of ['/account/info', '/logs/software_login', '/audit', '/ram/index', '/ram/role']) expect(paths).not.toContain(hidden);
    expect(paths).toEqual(expect.arrayContaining(['/logs/online', '/logs/connect', '/account/message', '/router/auth_source', '/handbook']));
    expect(visibleMenu({ user: ramUser, brand: ownBrand }).some((n) => 'key' in n && n.key === 'ram')).toBe(false);
  });

  it('shows no main-account-only entry before the user is known', () => {
    const paths = menuPaths(visibleMenu({ user: null, brand: otherBrand }));
    expect(paths).not.toContain('/account/info');
    expect(paths).not.toContain('/ram/index');
    expect(paths).not.toContain('/audit');
  });

  it('leads only to paths of the route table', () => {
    const known = new Set(ROUTES.map((r) => r.path));
    const all = menuPaths(visibleMenu({ user: withAuthSource, brand: ownBrand }));
    for (const p of all) expect(known.has(p)).toBe(true);
  });

  it('highlights the list of a detail page and places it in the breadcrumb', () => {
    expect(menuKeyOf('/network/detail')).toBe('/network/lists');
    expect(menuKeyOf('/logs/online')).toBe('/logs/online');
    expect(breadcrumbOf('/network/detail')).toEqual([
      { title: '智能组网' },
      { title: '网络列表', path: '/network/lists' },
      { title: '网络详情' },
    ]);
  });
});

describe('side menu on screen', () => {
  beforeEach(() => session.clear());

  const show = (user: typeof mainUser, brand = ownBrand) => {
    mockApi({ '/site/info': ok({ brand }), '/account/info': ok(user) });
    session.setToken('tok', 3600);
    session.setUser(user);
    return renderApp('/logs/online');
  };

  it('renders the sub-account menu without the hidden groups', async () => {
    show(ramUser);
    const menu = await screen.findByRole('menu', { name: M.sideMenu });
    expect(await within(menu).findByText('帮助文档')).toBeInTheDocument();
    expect(within(menu).queryByText('子账号管理')).not.toBeInTheDocument();
    expect(within(menu).getByText('在线日志')).toBeInTheDocument();
    expect(within(menu).queryByText('软件登录记录')).not.toBeInTheDocument();
  });

  it('renders the main-account menu with the sub-account group', async () => {
    show(mainUser, otherBrand);
    const menu = await screen.findByRole('menu', { name: M.sideMenu });
    expect(within(menu).getByText('子账号管理')).toBeInTheDocument();
    expect(within(menu).getByText('软件登录记录')).toBeInTheDocument();
    expect(within(menu).queryByText('帮助文档')).not.toBeInTheDocument();
  });
});
