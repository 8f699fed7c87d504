import { M, type RoleDetail, type RoleItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { RoleDialog } from './RoleDialog';

const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });
const group = (name: string) => within(screen.getByRole('group', { name }));
const box = (area: string, label: string) => group(area).getByRole('checkbox', { name: label });

const stored: RoleDetail = {
  id: 3,
  name: '网络运维',
  note: '只管两张网',
  create_time: '2026-01-01 10:00:00',
  update_time: '2026-01-02 10:00:00',
  auth: {
    'easylink.router': { create: 0, edit: 1, delete: 0 },
    'easylink.network': { create: 0, edit: 1, delete: 1, network: ['N-1', 'N-2'] },
    monitor: { view: 1, create: 1, edit: 0, delete: 0 },
  },
  networks: [
    { network_number: 'N-1', network_name: '华东总部' },
    { network_number: 'N-2', network_name: '' },
  ],
};

/** The tenant's networks as GET /network/select gives them; N-2 of the stored role is gone. */
const networks = ok([
  { network_number: 'N-1', network_name: '华东总部' },
  { network_number: 'N-7', network_name: '北京分部' },
]);

const networkSelect = () => screen.getByLabelText(M.roleNetworks);
async function pickNetwork(name: string) {
  await userEvent.click(networkSelect());
  await userEvent.click(await screen.findByTitle(name));
}
/** The selected tag with this text, found by its close button. */
const removeTag = async (text: string) => {
  const tag = screen.getAllByText(text).map((el) => el.closest('.ant-select-selection-item')).find((el) => el !== null);
  await userEvent.click(within(tag as HTMLElement).getByRole('img', { name: 'close', hidden: true }));
};
const item: RoleItem = { id: 3, name: stored.name, note: stored.note, create_time: stored.create_time, update_time: stored.update_time };

// antd forms in jsdom are slow on a busy machine; these tests click through the whole editor.
describe('RoleDialog', () => {
  it('asks for a name before any call; view is always on and locked', async () => {
    const m = mockApi({ '/ram_role/create': ok({ id: 1 }, M.saved) });
    renderWithProviders(<RoleDialog open onClose={() => {}} />);
    await userEvent.click(okButton());
    await shows(M.roleNameRequired);
    expect(m.callsTo('/ram_role/create')).toHaveLength(0);
    for (const area of [M.rolePermRouter, M.rolePermNetwork, M.rolePermMonitor]) {
      expect(box(area, M.permView)).toBeChecked();
      expect(box(area, M.permView)).toBeDisabled();
    }
  });

  it('clears and locks network create while a network is selected; networks are picked by name', async () => {
    mockApi({ '/network/select': networks });
    renderWithProviders(<RoleDialog open onClose={() => {}} />);
    const create = () => box(M.rolePermNetwork, M.permCreate);
    await userEvent.click(create());
    expect(create()).toBeChecked();

    await pickNetwork('北京分部');
    await waitFor(() => expect(create()).not.toBeChecked());
    expect(create()).toBeDisabled();

    await removeTag('北京分部');
    await waitFor(() => expect(create()).toBeEnabled());
    expect(create()).not.toBeChecked();
  });

  it('creates a role with its permissions and the numbers of the networks picked by name', async () => {
    const m = mockApi({ '/ram_role/create': ok({ id: 1 }, M.saved), '/network/select': networks });
    const onClose = vi.fn();
    renderWithProviders(<RoleDialog open onClose={onClose} />);
    await userEvent.type(screen.getByPlaceholderText(M.roleNameRequired), '成员管理员');
    await userEvent.type(screen.getByRole('textbox', { name: M.roleNote }), '管成员');
    await userEvent.click(box(M.rolePermRouter, M.permCreate));
    await userEvent.click(box(M.rolePermRouter, M.permDelete));
    await userEvent.click(box(M.rolePermNetwork, M.permEdit));
    await userEvent.click(box(M.rolePermMonitor, M.permMonitorDelete));
    await pickNetwork('北京分部');
    await userEvent.click(okButton());

    await waitFor(() => expect(m.callsTo('/ram_role/create')).toHaveLength(1));
    expect(m.callsTo('/ram_role/create')[0]!.body).toEqual({
      name: '成员管理员',
      note: '管成员',
      auth: {
        'easylink.router': { create: 1, edit: 0, delete: 1 },
        'easylink.network': { create: 0, edit: 1, delete: 0, network: ['N-7'] },
        monitor: { view: 1, create: 0, edit: 0, delete: 1 },
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it("shows the server's refusal of a name the tenant has under the name field, and stays open", async () => {
    const m = mockApi({ '/ram_role/create': refused(M.roleNameTaken), '/network/select': networks });
    const onClose = vi.fn();
    renderWithProviders(<RoleDialog open onClose={onClose} />);
    await userEvent.type(screen.getByPlaceholderText(M.roleNameRequired), '网络运维');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/ram_role/create')).toHaveLength(1));
    await waitFor(() => expect(screen.getByPlaceholderText(M.roleNameRequired).closest('.ant-form-item')).toHaveTextContent(M.roleNameTaken));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('edits a stored role: its permissions and networks (by name) are shown, and the change is sent with its id', async () => {
    const m = mockApi({ '/ram_role/info': ok(stored), '/ram_role/edit': ok(null, M.updated), '/network/select': networks });
    const onClose = vi.fn();
    renderWithProviders(<RoleDialog open record={item} onClose={onClose} />);
    await waitFor(() => expect(screen.getByPlaceholderText(M.roleNameRequired)).toHaveValue('网络运维'));
    expect(m.callsTo('/ram_role/info')[0]!.query).toEqual({ id: '3' });
    expect(box(M.rolePermRouter, M.permEdit)).toBeChecked();
    expect(box(M.rolePermRouter, M.permCreate)).not.toBeChecked();
    expect(box(M.rolePermMonitor, M.permMonitorCreate)).toBeChecked();
    // A network still there shows its name; one deleted since shows its number.
    await shows('华东总部');
    expect(screen.getByText('N-2')).toBeInTheDocument();
    expect(screen.queryByText('N-1')).not.toBeInTheDocument();
    expect(box(M.rolePermNetwork, M.permCreate)).toBeDisabled();

    // Removing both networks frees network create again.
    await removeTag('N-2');
    await removeTag('华东总部');
    await waitFor(() => expect(box(M.rolePermNetwork, M.permCreate)).toBeEnabled());
    await userEvent.click(box(M.rolePermNetwork, M.permCreate));
    await userEvent.click(okButton());

    await waitFor(() => expect(m.callsTo('/ram_role/edit')).toHaveLength(1));
    expect(m.callsTo('/ram_role/edit')[0]!.body).toEqual({
      id: 3,
      name: '网络运维',
      note: '只管两张网',
      auth: {
        'easylink.router': { create: 0, edit: 1, delete: 0 },
        'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
        monitor: { view: 1, create: 1, edit: 0, delete: 0 },
      },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
