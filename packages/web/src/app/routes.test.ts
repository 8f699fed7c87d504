import { describe, expect, it } from 'vitest';
import { routeOf, ROUTES } from './routes';

/**
 * The screens still to be built, by the open issue that builds them; each shows '该功能即将上线' until
 * then. An issue that builds one gives its route a page and removes it here.
 */
const PENDING: Record<string, readonly string[]> = {
};

describe('route table', () => {
  it('shows the coming-soon placeholder only for the screens of open issues', () => {
    const placeholders = ROUTES.filter((r) => !r.page).map((r) => r.path);
    expect(placeholders.toSorted()).toEqual(Object.values(PENDING).flat().toSorted());
  });

  it('lists every path once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
});

describe('the route table’s access mirrors the server', () => {
  it('keeps the account, LDAP form, software login, sub-account, API token and audit pages for main accounts', () => {
    const mainOnly = ROUTES.filter((r) => r.access === 'main').map((r) => r.path);
    expect(mainOnly).toEqual([
      '/account',
      '/account/info',
      '/account/password',
      '/account/phone',
      '/account/email',
      '/router/ldap_edit',
      '/logs/software_login',
      '/ram/index',
      '/ram/role',
      '/account/api_token',
      '/audit',
    ]);
  });

  it('asks the network permissions of the create and edit pages', () => {
    expect(routeOf('/network/create')?.access).toBe('easylink.network.create');
    expect(routeOf('/network/edit')?.access).toBe('easylink.network.edit');
    expect(routeOf('/network/detail')?.access).toBeUndefined();
  });
});
