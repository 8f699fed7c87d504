import { fmt, LIMITS, M, type ApiTokenItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import ApiTokenPage from './ApiTokenPage';

const TOKEN = `hlk_${'Ab3_'.repeat(10)}xyz`;

const row: ApiTokenItem = {
  id: 7,
  name: '部署脚本',
  prefix: 'hlk_Ab3_Ab3_',
  scope: 'role',
  role_id: 3,
  role_name: '运维',
  state: 'active',
  create_time: '2026-01-01 10:00:00',
  expire_time: '2026-04-01 10:00:00',
  last_used_time: '2026-01-02 09:00:00',
  last_used_ip: '203.0.113.5',
};

describe('ApiTokenPage', () => {
  it('shows the console’s empty state when there is no token', async () => {
    mockApi({ '/api_token/lists': ok([]) });
    renderWithProviders(<ApiTokenPage />, { route: '/account/api_token' });
    await shows(M.empty);
  });

  it('lists tokens with prefix, scope, state and last use, and revokes after the confirmation', async () => {
    const m = mockApi({ '/api_token/lists': ok([row]), '/api_token/revoke': ok(null) });
    renderWithProviders(<ApiTokenPage />, { route: '/account/api_token' });
    const tr = (await screen.findByText('部署脚本')).closest('tr')!;
    expect(within(tr).getByText('hlk_Ab3_Ab3_…')).toBeInTheDocument();
    expect(within(tr).getByText(fmt(M.apiTokenRoleOf, { name: '运维' }))).toBeInTheDocument();
    expect(within(tr).getByText(M.apiTokenStateActive)).toBeInTheDocument();
    expect(within(tr).getByText('203.0.113.5')).toBeInTheDocument();

    await userEvent.click(within(tr).getByRole('button', { name: M.apiTokenRevoke }));
    await shows(M.apiTokenRevokeConfirm);
    expect(m.callsTo('/api_token/revoke')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/api_token/revoke')[0]?.body).toEqual({ id: 7 }));
  });

  it('checks the form with the contract rules, then shows the new token once with a warning', async () => {
    const m = mockApi({
      '/api_token/lists': ok([]),
      '/ram_role/select': ok([{ id: 3, name: '运维' }]),
      '/api_token/create': ok({ ...row, scope: 'read', role_id: null, role_name: '', last_used_time: '', last_used_ip: '', token: TOKEN }),
    });
    renderWithProviders(<ApiTokenPage />, { route: '/account/api_token' });
    await userEvent.click(await screen.findByRole('button', { name: new RegExp(M.apiTokenCreate) }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await shows(M.apiTokenNameRequired);
    expect(m.callsTo('/api_token/create')).toHaveLength(0);

    // A role scope needs a role.
    await userEvent.click(within(dialog).getByLabelText(M.apiTokenScopeRole));
    await userEvent.type(within(dialog).getByPlaceholderText(M.apiTokenNameRequired), '部署脚本');
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await shows(M.apiTokenRoleRequired);
    expect(m.callsTo('/api_token/create')).toHaveLength(0);

    await userEvent.click(within(dialog).getByLabelText(M.apiTokenScopeRead));
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/api_token/create')[0]?.body).toEqual({ name: '部署脚本', scope: 'read', role_id: null, expires_days: 90 }));
    await shows(M.apiTokenShownWarning);
    expect(screen.getByTestId('api-token-value')).toHaveTextContent(TOKEN);
    await userEvent.click(screen.getByRole('button', { name: M.apiTokenSaved }));
    await waitFor(() => expect(screen.queryByText(TOKEN)).not.toBeInTheDocument());
    expect(LIMITS.apiTokenExpiryDays).toContain(90);
  });
});
