import { fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { detail, member } from '../../test/networkFixtures';
import { PrefixDialog } from './PrefixDialog';
import { okButton, pick, typeInto } from './segmentTesting';

const row = (n: number, field: string) => `${M.segUiPrefixRow} ${n} ${field}`;

function setup(
  advanced = 0,
  saved = [{ ip: '10.1.0.0', mask: 16, name: 'R1', permission: 'permit' as const, ge: null, le: null }],
  answer: EnvelopeOf<'/network/edit_prefix'> = ok(null, '保存成功'),
) {
  session.setUser({ ...mainUser, auth: { quagga: 1, quagga_advanced: advanced, default_route: 0 } });
  const m = mockApi({ '/network/prefix': ok(saved), '/network/edit_prefix': answer });
  const onClose = vi.fn();
  renderWithProviders(<PrefixDialog detail={detail({ member: [member({ router_name: 'R1', member_type: 'center' }), member({ router_name: 'R2' })] })} open onClose={onClose} />);
  return { m, onClose };
}

describe('PrefixDialog', () => {
  it('closes without a call when nothing changed', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByDisplayValue('10.1.0.0')).toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/network/edit_prefix')).toHaveLength(0);
  });

  it("labels the first row's fields where the eye sees them: the network number's label names its input", async () => {
    setup();
    await screen.findByDisplayValue('10.1.0.0');
    expect(screen.getByText(M.segUiPrefixIp, { selector: 'label' })).toBeInTheDocument();
    expect(screen.getByLabelText(M.segUiPrefixIp)).toBe(screen.getByLabelText(row(1, M.segUiPrefixIp)));
    expect(screen.getByText(M.segUiPrefixMask, { selector: 'label' })).toBeInTheDocument();
  });

  it('corrects a network number to its mask with a warning, refuses duplicates, and sends the list', async () => {
    const { m, onClose } = setup();
    await screen.findByDisplayValue('10.1.0.0');
    await userEvent.click(screen.getByText(M.segUiPrefixAdd));
    await userEvent.click(okButton());
    await shows(M.segPrefixIpRequired);
    await shows(M.segPrefixMaskRange);
    await typeInto(row(2, M.segUiPrefixIp), '0.1.2.3');
    await shows(M.segPrefixIpInvalid);
    await typeInto(row(2, M.segUiPrefixIp), '10.1.9.9');
    await pick(row(2, M.segUiPrefixMask), '/16');
    await shows('网络号10.1.9.9与掩码不匹配，已更正为10.1.0.0');
    await userEvent.click(okButton());
    await shows(M.segPrefixRepeat);
    expect(m.callsTo('/network/edit_prefix')).toHaveLength(0);

    await pick(row(2, M.segUiPrefixMask), '/24');
    await typeInto(row(2, M.segUiPrefixIp), '192.168.8.0');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_prefix')).toHaveLength(1));
    expect(m.callsTo('/network/edit_prefix')[0]!.body).toEqual({
      network_number: 'N1',
      prefix: [
        { ip: '10.1.0.0', mask: 16, name: 'R1' },
        { ip: '192.168.8.0', mask: 24, name: '' },
      ],
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('shows the server’s refusal of a prefix in the VPN’s addresses and stays open', async () => {
    const msg = fmt(M.segPrefixOverlapVpn, { prefix: '100.64.5.0/24', what: fmt(M.segWhatDefaultPool, { label: M.popPoolCenter }), segment: '100.64.0.0/12' });
    const { m, onClose } = setup(0, undefined, refused(msg));
    await screen.findByDisplayValue('10.1.0.0');
    await typeInto(row(1, M.segUiPrefixIp), '100.64.0.0');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_prefix')).toHaveLength(1));
    await shows(msg);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('shows permission, ge and le only with advanced routing', async () => {
    setup(0);
    await screen.findByDisplayValue('10.1.0.0');
    expect(screen.queryByLabelText(row(1, M.segUiPrefixGe))).not.toBeInTheDocument();
  });

  it('refuses ge not above the mask with the spec message', async () => {
    const { m } = setup(1);
    await screen.findByDisplayValue('10.1.0.0');
    await pick(row(1, M.segUiPrefixGe), '16');
    await userEvent.click(okButton());
    await shows(M.segPrefixMatchRange);
    expect(m.callsTo('/network/edit_prefix')).toHaveLength(0);
    await pick(row(1, M.segUiPrefixGe), '20');
    await pick(row(1, M.segUiPrefixPermission), M.segUiPrefixDeny);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_prefix')).toHaveLength(1));
    expect(m.callsTo('/network/edit_prefix')[0]!.body).toEqual({ network_number: 'N1', prefix: [{ ip: '10.1.0.0', mask: 16, name: 'R1', permission: 'deny', ge: 20, le: '' }] });
  });
});
