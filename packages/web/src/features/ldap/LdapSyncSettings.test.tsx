import { fmt, LIMITS, M } from '@hublink/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import LdapEditPage from './LdapEditPage';
import { savedConfig } from './testData';

// The automatic sync's settings on the LDAP form (issue 33): the cycle and auto-import, in automatic mode only.

const u = () => userEvent.setup({ delay: null });
const mainButton = () => screen.getByRole('button', { name: /检\s*测\s*配\s*置|保\s*存\s*配\s*置|直接保存|检测中|保存中/ });
const cycleField = () => screen.getByLabelText(M.ldapSyncCycle, { selector: 'input' });

function open(config = savedConfig()) {
  const m = mockApi({
    '/ldap/config': ok({ enable: 1, data: config, notice: '' }),
    '/ldap/check': ok(null, M.ldapChecked),
    '/ldap/save': ok(null, M.ldapSaved),
    '/network/select': ok([{ network_number: 'N1', network_name: 'HQ' }]),
  });
  session.setUser(mainUser);
  renderWithProviders(<LdapEditPage />, { route: '/router/ldap_edit?ldapType=edit', path: '/router/ldap_edit' });
  return m;
}

describe('LDAP form: the automatic sync’s settings', () => {
  it('shows the cycle and auto-import in automatic mode only, refuses a cycle under 5 minutes, and sends both', async () => {
    const m = open();
    await shows(M.ldapGroupConnection);
    // Manual mode: hidden.
    expect(screen.queryByText(M.ldapAutoImportHint)).not.toBeVisible();
    await u().click(within(screen.getByRole('radiogroup', { name: M.ldapSyncMode })).getByText(M.ldapSyncAuto));
    await waitFor(() => expect(screen.getByText(M.ldapAutoImportHint)).toBeVisible());
    expect(cycleField()).toHaveValue(String(LIMITS.ldapSyncCycleMinutes));

    fireEvent.change(cycleField(), { target: { value: '4' } });
    await u().click(mainButton());
    await shows(fmt(M.ldapSyncCycleRange, { min: LIMITS.ldapSyncCycleMin, max: LIMITS.ldapSyncCycleMax }));
    expect(m.callsTo('/ldap/check')).toHaveLength(0);

    fireEvent.change(cycleField(), { target: { value: '5' } });
    await u().click(screen.getByRole('switch', { name: M.ldapAutoImport }));
    await u().click(mainButton());
    await waitFor(() => expect(m.callsTo('/ldap/check')).toHaveLength(1));
    expect(m.callsTo('/ldap/check')[0]!.body).toMatchObject({ sync_mode: 2, sync_cycle: 5, auto_import: 1 });
  });

  it('keeps the saved choices through a save in manual mode', async () => {
    const m = open(savedConfig({ sync_mode: 1, sync_cycle: 15, auto_import: 1 }));
    await shows(M.ldapGroupConnection);
    await waitFor(() => expect(mainButton()).toHaveTextContent(M.ldapSaveDirect));
    await u().click(mainButton());
    await waitFor(() => expect(m.callsTo('/ldap/save')).toHaveLength(1));
    expect(m.callsTo('/ldap/save')[0]!.body).toMatchObject({ sync_mode: 1, sync_cycle: 15, auto_import: 1 });
  });
});
