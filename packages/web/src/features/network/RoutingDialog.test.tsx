import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { detail, member } from '../../test/networkFixtures';
import { RoutingDialog } from './RoutingDialog';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;
const centers = [member({ router_name: 'C1', member_type: 'center' }), member({ router_name: 'C2', member_type: 'center' }), member({ router_name: 'P1' })];

function setup(saved = { type: 1, main_router: '', secondary_router: '' }) {
  const m = mockApi({ '/network/routing': ok(saved), '/network/edit_routing': ok(null, '设置成功') });
  const onClose = vi.fn();
  renderWithProviders(<RoutingDialog detail={detail({ member: centers })} open onClose={onClose} />);
  return { m, onClose };
}

/** Picks a center in one line's select (antd renders the options in a portal). */
async function pick(line: string, center: string) {
  await userEvent.click(screen.getByLabelText(line));
  const options = await screen.findAllByTitle(center);
  await userEvent.click(options.at(-1)!);
}

describe('RoutingDialog', () => {
  it('opens with the saved dual-primary mode and sends type 1 alone', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByLabelText(M.netSetRoutingDual)).toBeChecked();
    expect(m.callsTo('/network/routing')[0]!.query).toEqual({ network_number: 'N1' });
    expect(screen.queryByLabelText(M.netSetRoutingMain)).not.toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_routing')).toHaveLength(1));
    expect(m.callsTo('/network/edit_routing')[0]!.body).toEqual({ network_number: 'N1', type: 1 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('main-backup needs the lines (spec message) and picking one sets the other to the other center', async () => {
    const { m } = setup();
    await userEvent.click(await screen.findByLabelText(M.netSetRoutingMainBackup));
    await userEvent.click(okButton());
    await shows(M.networkRoutingMainRequired);
    expect(m.callsTo('/network/edit_routing')).toHaveLength(0);

    // Picking the main line sets the backup to the other center.
    await pick(M.netSetRoutingMain, 'C2');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_routing')).toHaveLength(1));
    expect(m.callsTo('/network/edit_routing')[0]!.body).toEqual({ network_number: 'N1', type: 2, main_router: 'C2', secondary_router: 'C1' });

    // Picking the backup line sets the main to the other center.
    await pick(M.netSetRoutingBackup, 'C2');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_routing')).toHaveLength(2));
    expect(m.callsTo('/network/edit_routing')[1]!.body).toEqual({ network_number: 'N1', type: 2, main_router: 'C1', secondary_router: 'C2' });
  });

  it('opens with the saved main-backup lines', async () => {
    const { m } = setup({ type: 2, main_router: 'C2', secondary_router: 'C1' });
    expect(await screen.findByLabelText(M.netSetRoutingMainBackup)).toBeChecked();
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_routing')).toHaveLength(1));
    expect(m.callsTo('/network/edit_routing')[0]!.body).toEqual({ network_number: 'N1', type: 2, main_router: 'C2', secondary_router: 'C1' });
  });
});
