import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { item, quota } from '../../test/networkFixtures';
import NetworkListPage from './NetworkListPage';

const rows = [
  item({ network_number: 'N1', network_name: '华东总部', network_type: 1, fr_name: '', network_status: 1 }),
  item({ network_number: 'N2', network_name: '北京分部', network_type: 2, fr_name: 'POP-北京', network_status: 0 }),
  item({ network_number: 'N3', network_name: '海外', network_type: 3, member_count: 7, network_status: 1 }),
];

function setup(extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({
    '/network/lists': { ...ok(rows), count: rows.length },
    '/network/config': ok(quota({ network_router_use: 5, network_router_count: 20, network_level: 1 })),
    ...extra,
  });
  const r = renderWithProviders(<NetworkListPage />, { route: '/network/lists' });
  return { m, r };
}

const row = (name: string) => screen.getByText(name).closest('tr') as HTMLElement;

describe('NetworkListPage', () => {
  it('shows the quota cards, the types and the statuses (disabled in red)', async () => {
    setup();
    await shows('华东总部');
    expect(screen.getByText(M.networkListTitle)).toBeInTheDocument();
    expect(screen.getByText(M.networkLevelBasic)).toBeInTheDocument();
    expect(screen.getByText('已用 5 / 20')).toBeInTheDocument();
    expect(within(row('华东总部')).getByText(M.networkTypeHub)).toBeInTheDocument();
    expect(within(row('华东总部')).getByText('-')).toBeInTheDocument();
    expect(within(row('北京分部')).getByText(M.networkTypeP2p)).toBeInTheDocument();
    expect(within(row('北京分部')).getByText('POP-北京')).toBeInTheDocument();
    expect(within(row('海外')).getByText(M.networkTypePop)).toBeInTheDocument();
    expect(within(row('华东总部')).getByText(M.networkStatusOk)).toBeInTheDocument();
    const disabled = within(row('北京分部')).getByText(M.networkStatusDisabled);
    expect(disabled.closest('.ant-typography-danger')).not.toBeNull();
    expect(screen.getByRole('button', { name: new RegExp(M.networkCreate) })).toBeInTheDocument();
  });

  it('upgrading only warns 暂时无法升级', async () => {
    setup();
    await userEvent.click(await screen.findByRole('button', { name: M.networkUpgrade }));
    await shows(M.networkNoUpgrade);
  });

  it('renames: required and at most 24 characters, the input stops at 24', async () => {
    const { m } = setup({ '/network/name': ok(null, '修改成功') });
    await userEvent.click(await screen.findByRole('button', { name: `${M.networkRename} 华东总部` }));
    const input = await screen.findByPlaceholderText(M.networkNameRequired);
    expect(input).toHaveValue('华东总部');
    await userEvent.clear(input);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await shows(M.networkNameRequired);
    expect(m.callsTo('/network/name')).toHaveLength(0);

    await userEvent.click(input);
    await userEvent.paste('a'.repeat(30));
    expect(input).toHaveValue('a'.repeat(24));
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/network/name')).toHaveLength(1));
    expect(m.callsTo('/network/name')[0]!.body).toEqual({ network_number: 'N1', network_name: 'a'.repeat(24) });
    await shows('修改成功');
  });

  it('deletes after the confirmation and reloads the list', async () => {
    const { m } = setup({ '/network/delete': ok(null, M.deleted) });
    await shows('北京分部');
    await userEvent.click(within(row('北京分部')).getByRole('button', { name: M.networkActionDelete }));
    expect(m.callsTo('/network/delete')).toHaveLength(0);
    await shows(M.confirmDelete);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/network/delete')).toHaveLength(1));
    expect(m.callsTo('/network/delete')[0]!.body).toEqual({ network_number: 'N2' });
    await shows(M.deleted);
    await waitFor(() => expect(m.callsTo('/network/lists').length).toBeGreaterThan(1));
  });

  it('details and manage members go to their pages with the network number', async () => {
    const { r } = setup();
    await shows('海外');
    await userEvent.click(within(row('海外')).getByRole('button', { name: M.networkActionMembers }));
    expect(r.location()).toBe('/network/edit?network_number=N3');
  });

  it('hides create, rename, manage and delete from a sub-account whose role lacks them', async () => {
    const role = {
      'easylink.router': { create: 0, edit: 0, delete: 0 },
      'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    };
    mockApi({ '/network/lists': { ...ok(rows), count: rows.length }, '/network/config': ok(quota()) });
    session.setUser({ ...mainUser, ram: 1, role } as typeof mainUser);
    renderWithProviders(<NetworkListPage />, { route: '/network/lists' });
    await shows('华东总部');
    expect(within(row('华东总部')).getByRole('button', { name: M.networkActionDetail })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: new RegExp(M.networkCreate) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.networkActionDelete })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.networkActionMembers })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: `${M.networkRename} 华东总部` })).not.toBeInTheDocument();
  });
});
