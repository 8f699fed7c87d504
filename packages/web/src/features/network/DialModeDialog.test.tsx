import { M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { DialModeDialog } from './DialModeDialog';
import { detail, member } from '../../test/networkFixtures';

const okButton = () => screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!;

describe('DialModeDialog', () => {
  it('needs a member and a mode, shows the member’s mode and sends the new one', async () => {
    const m = mockApi({ '/network/software_mode': ok(null, '设置成功') });
    const onClose = vi.fn();
    const members = [member({ router_name: 'R1', member_type: 'center' }), member({ router_name: 'A1', router_type: 2, mode: 3 })];
    renderWithProviders(<DialModeDialog detail={detail({ member: members })} open onClose={onClose} />);
    await userEvent.click(await screen.findByText(/确\s*定|OK/));
    await shows(M.netSetModeMemberPick);
    await shows(M.networkDialModeInvalid);
    expect(m.callsTo('/network/software_mode')).toHaveLength(0);

    await userEvent.click(screen.getByLabelText(M.netSetModeMember));
    await userEvent.click((await screen.findAllByTitle('A1')).at(-1)!);
    await waitFor(() => expect(screen.getByLabelText(M.networkModePop)).toBeChecked());
    await userEvent.click(screen.getByLabelText(M.networkModeCenter));
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/software_mode')).toHaveLength(1));
    expect(m.callsTo('/network/software_mode')[0]!.body).toEqual({ network_number: 'N1', router_name: 'A1', mode: 2 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('on a big network whose detail holds one page, lists every member from /network/member (issue 34)', async () => {
    const everyone = [member({ router_name: 'R1', member_type: 'center' }), ...Array.from({ length: 30 }, (_, i) => member({ router_name: `P${i + 1}`, mode: 2 }))];
    const m = mockApi({ '/network/member': ok(everyone) });
    renderWithProviders(<DialModeDialog detail={detail({ member: everyone.slice(0, 10), member_count: everyone.length })} open onClose={vi.fn()} />);
    await waitFor(() => expect(m.callsTo('/network/member')).toHaveLength(1));
    expect(m.callsTo('/network/member')[0]!.query).toEqual({ network_number: 'N1' });
    await userEvent.click(screen.getByLabelText(M.netSetModeMember));
    await userEvent.type(screen.getByLabelText(M.netSetModeMember), 'P30');
    await userEvent.click((await screen.findAllByTitle('P30')).at(-1)!);
    await waitFor(() => expect(screen.getByLabelText(M.networkModeCenter)).toBeChecked());
  });
});
