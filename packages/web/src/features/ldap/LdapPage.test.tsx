import { fmt, LIMITS, M, type LdapConfig, type LdapUser, type RoleAuth } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok, type ApiCall } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import LdapPage from './LdapPage';
import { ldapUser, savedConfig, syncState } from './testData';

const users: LdapUser[] = [ldapUser(), ldapUser({ username: 'bob', description: '', uuid: 'u-bob', exist: true, disable: 1 }), ldapUser({ username: 'carl-x', uuid: 'u-carl', verify: M.ldapImportNameInvalid })];

function api(config: LdapConfig | null = savedConfig(), state = syncState()) {
  return mockApi({
    '/ldap/config': ok({ enable: config ? 1 : 0, data: config, notice: '' }),
    '/ldap/sync_status': ok(state),
    '/ldap/user': (c: ApiCall) => {
      const rows = c.query.search ? users.filter((u) => u.username.includes(c.query.search!)) : c.query.exist === '1' ? users.filter((u) => u.exist) : users;
      return { code: 200, msg: 'success', data: { list: rows, hash: 'h1' }, count: rows.length };
    },
    '/ldap/import': ok(null, M.ldapImported),
    '/ldap/remove': ok(null, M.ldapRemoved),
    '/ldap/import_all': ok({ success: 1, fail: 1 }, fmt(M.ldapImportDone, { success: 1, fail: 1 })),
    '/ldap/remove_all': ok({ count: 1 }, fmt(M.ldapRemoveDone, { n: 1 })),
    '/ldap/remove_disable': ok({ count: 1 }, fmt(M.ldapRemoveDone, { n: 1 })),
    '/ldap/sync': ok(null, M.ldapSynced),
    '/ldap/restart_sync': ok(null, M.ldapSyncRestarted),
    '/ldap/sync_mode': ok(null, M.ldapSyncModeSaved),
    '/ldap/delete': ok(null, M.ldapClosed),
  });
}

const u = () => userEvent.setup({ delay: null });
/** antd puts a space between the two characters of a button's label. */
const button = (name: string) => screen.getByRole('button', { name: new RegExp(name.split('').join('\\s*')) });
const confirmOk = async () => u().click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
/** The row of a user by its directory name (the first cell; the member-name cell may read the same). */
const rowOf = async (name: string) => (await screen.findAllByRole('cell', { name }))[0]!.closest('tr')!;

describe('LdapPage (/router/ldap)', () => {
  it('shows the enable tile while LDAP is off; the main account enables it, a sub-account is told to ask', async () => {
    session.setUser(mainUser);
    api(null);
    const r = renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows(M.ldapIntroTitle);
    expect(screen.getByText(M.ldapIntro)).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: M.ldapEnable }));
    expect(r.location()).toBe('/router/ldap_edit?ldapType=create');
    r.unmount();

    session.setUser(ramUser);
    api(null);
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows(M.ldapEnableMainOnly);
    expect(screen.queryByRole('button', { name: M.ldapEnable })).not.toBeInTheDocument();
  });

  it('shows the connection, account, association and status groups; manual mode offers the one-key sync', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    const connection = await screen.findByRole('region', { name: M.ldapGroupConnection });
    expect(within(connection).getByText('ldap.example.com:389')).toBeInTheDocument();
    expect(within(connection).getByText(M.ldapModePublic)).toBeInTheDocument();
    const account = screen.getByRole('region', { name: M.ldapGroupAccount });
    expect(within(account).getByText('******')).toBeInTheDocument();
    expect(within(account).getByText(M.ldapTypeOpenLdap)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: M.ldapGroupAssociation })).getByText('HQ')).toBeInTheDocument();
    const status = screen.getByRole('region', { name: M.ldapGroupStatus });
    await waitFor(() => expect(within(status).getByText(M.ldapServiceRunning)).toBeInTheDocument());
    // Manual mode: no cycle details.
    expect(within(status).queryByText(M.ldapCycle)).not.toBeInTheDocument();
    await shows('alice');
    expect(within(await rowOf('bob')).getByText(M.ldapFilterImported)).toBeInTheDocument();
    expect(within(await rowOf('carl-x')).getByText(M.ldapImportNameInvalid)).toBeInTheDocument();

    await u().click(button(M.ldapSyncNow));
    await waitFor(() => expect(m.callsTo('/ldap/sync')).toHaveLength(1));
    expect(m.callsTo('/ldap/sync')[0]!.body).toEqual({ hash: 'h1' });
    await shows(M.ldapSynced);
  });

  it('in automatic mode hides the one-key sync and shows the service details, and its message when abnormal', async () => {
    session.setUser(mainUser);
    api(savedConfig({ sync_mode: 2 }), syncState({ status: 0, message: M.ldapErrRefused }));
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    const status = await screen.findByRole('region', { name: M.ldapGroupStatus });
    await waitFor(() => expect(within(status).getByText(M.ldapServiceAbnormal)).toBeInTheDocument());
    expect(within(status).getByText(fmt(M.ldapCycleValue, { n: 60 }))).toBeInTheDocument();
    expect(within(status).getByText(fmt(M.ldapDurationValue, { n: 3 }))).toBeInTheDocument();
    expect(within(status).getByText(M.ldapErrRefused)).toBeInTheDocument();
    await shows('alice');
    expect(screen.queryByRole('button', { name: new RegExp(M.ldapSyncNow.split('').join('\\s*')) })).not.toBeInTheDocument();
  });

  it('imports and removes one user, with the listing’s hash', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await u().click(within(await rowOf('alice')).getByRole('button', { name: M.ldapImport }));
    await waitFor(() => expect(m.callsTo('/ldap/import')[0]?.body).toEqual({ hash: 'h1', uuid: 'u-alice' }));
    await u().click(within(await rowOf('bob')).getByRole('button', { name: M.ldapRemove }));
    await shows(M.ldapConfirmRemove);
    expect(m.callsTo('/ldap/remove')).toHaveLength(0);
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/ldap/remove')[0]?.body).toEqual({ hash: 'h1', uuid: 'u-bob' }));
  });

  it('asks before acting on the whole listing: import all, remove the disabled, remove all; restarts the sync', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows('alice');
    for (const [label, confirm, path] of [
      [M.ldapImportAll, M.ldapConfirmImportAll, '/ldap/import_all'],
      [M.ldapRemoveDisabled, M.ldapConfirmRemoveDisabled, '/ldap/remove_disable'],
      [M.ldapRemoveAll, M.ldapConfirmRemoveAll, '/ldap/remove_all'],
    ] as const) {
      await u().click(button(label));
      await shows(confirm);
      expect(m.callsTo(path)).toHaveLength(0);
      await confirmOk();
      await waitFor(() => expect(m.callsTo(path)[0]?.body).toEqual({ hash: 'h1' }));
    }
    await u().click(button(M.ldapRestartSync));
    await waitFor(() => expect(m.callsTo('/ldap/restart_sync')).toHaveLength(1));
  });

  it('searches by username or description, showing at most 10, and filters the imported ones', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows('alice');
    await u().type(screen.getByPlaceholderText(M.ldapUserSearch), 'bo{Enter}');
    await waitFor(() => expect(m.callsTo('/ldap/user').at(-1)!.query).toEqual({ page: '1', search: 'bo' }));
    await shows(fmt(M.ldapSearchShown, { n: LIMITS.ldapSearchShown }));
    await u().clear(screen.getByPlaceholderText(M.ldapUserSearch));
    await u().type(screen.getByPlaceholderText(M.ldapUserSearch), '{Enter}');
    await u().click(screen.getByRole('combobox', { name: M.ldapColExist }));
    await u().click(await screen.findByTitle(M.ldapFilterImported));
    await waitFor(() => expect(m.callsTo('/ldap/user').at(-1)!.query).toEqual({ page: '1', exist: '1' }));
  });

  it('switches the sync mode in place, one switch at a time', async () => {
    session.setUser(mainUser);
    const m = api();
    let answer: () => void = () => undefined;
    m.answer('/ldap/sync_mode', () => new Promise((resolve) => (answer = () => resolve(ok(null, M.ldapSyncModeSaved)))));
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    const group = await screen.findByRole('radiogroup', { name: M.ldapSyncMode });
    await u().click(within(group).getByText(M.ldapSyncAuto));
    await waitFor(() => expect(m.callsTo('/ldap/sync_mode')[0]?.body).toEqual({ sync_mode: 2 }));
    // Until the answer (at most 3 s) the switch takes no other.
    await waitFor(() => expect(within(group).getByRole('radio', { name: M.ldapSyncManual })).toBeDisabled());
    answer();
    await waitFor(() => expect(within(group).getByRole('radio', { name: M.ldapSyncManual })).toBeEnabled());
  });

  it('closes LDAP after its warning; configuring is for the main account only', async () => {
    session.setUser(mainUser);
    const m = api();
    const r = renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows(M.ldapClose);
    await u().click(button(M.ldapEdit));
    expect(r.location()).toBe('/router/ldap_edit?ldapType=edit');
    r.unmount();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows(M.ldapClose);
    await u().click(button(M.ldapClose));
    await shows(M.ldapCloseConfirm);
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/ldap/delete')).toHaveLength(1));
  });

  it('offers a sub-account only what its role grants', async () => {
    const role: RoleAuth = {
      'easylink.router': { create: 1, edit: 0, delete: 0 },
      'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    };
    session.setUser({ ...ramUser, role });
    api();
    renderWithProviders(<LdapPage />, { route: '/router/ldap' });
    await shows('alice');
    expect(within(await rowOf('alice')).getByRole('button', { name: M.ldapImport })).toBeInTheDocument();
    expect(within(await rowOf('bob')).queryByRole('button', { name: M.ldapRemove })).not.toBeInTheDocument();
    expect(button(M.ldapImportAll)).toBeInTheDocument();
    for (const label of [M.ldapRemoveAll, M.ldapRemoveDisabled, M.ldapSyncNow, M.ldapRestartSync, M.ldapEdit, M.ldapClose]) {
      expect(screen.queryByRole('button', { name: new RegExp(label.split('').join('\\s*')) })).not.toBeInTheDocument();
    }
    expect(within(screen.getByRole('radiogroup', { name: M.ldapSyncMode })).getByRole('radio', { name: M.ldapSyncAuto })).toBeDisabled();
  });
});
