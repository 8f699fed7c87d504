import { fmt, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { detail } from '../../test/networkFixtures';
import { InterconnectDialog } from './InterconnectDialog';
import { okButton, pick, typeInto } from './segmentTesting';

const gateway = `${M.segUiInterconnectSegment} ${M.segUiGateway}`;
const mask = `${M.segUiInterconnectSegment} ${M.segUiMask}`;

function setup(enable = 0, answer: EnvelopeOf<'/network/edit_center_link_gateway'> = ok(null, '设置成功')) {
  const m = mockApi({ '/network/enable_center_link': ok(null, '设置成功'), '/network/edit_center_link_gateway': answer });
  const onClose = vi.fn();
  renderWithProviders(<InterconnectDialog detail={detail({ network_interconnect: { enable, segment: { gateway: '10.255.0.0', mask: 24 } } })} open onClose={onClose} />);
  return { m, onClose };
}

describe('InterconnectDialog', () => {
  it('turns interconnect on after a confirmation', async () => {
    const { m } = setup(0);
    expect(await screen.findByText(M.segUiInterconnectOff)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: M.segUiInterconnectEnable }));
    await shows(M.segUiInterconnectEnableConfirm);
    expect(m.callsTo('/network/enable_center_link')).toHaveLength(0);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/enable_center_link')).toHaveLength(1));
    expect(m.callsTo('/network/enable_center_link')[0]!.body).toEqual({ network_number: 'N1', enable: 1 });
  });

  it('shows the server’s refusal of a segment over a route prefix and stays open', async () => {
    const msg = fmt(M.segOverlapPrefix, { segment: '10.254.0.0/24', prefix: '10.254.0.0/16' });
    const { m, onClose } = setup(1, refused(msg));
    expect(await screen.findByText(M.segUiInterconnectOn)).toBeInTheDocument();
    await typeInto(gateway, '10.254.0.0');
    await userEvent.click(okButton(new RegExp(M.segUiSaveSegment)));
    await waitFor(() => expect(m.callsTo('/network/edit_center_link_gateway')).toHaveLength(1));
    await shows(msg);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('refuses a segment that is not a network address, and saves a valid one', async () => {
    const { m, onClose } = setup(1);
    expect(await screen.findByText(M.segUiInterconnectOn)).toBeInTheDocument();
    await typeInto(gateway, '10.254.0.1');
    await pick(mask, '/16');
    await userEvent.click(okButton(new RegExp(M.segUiSaveSegment)));
    await shows(M.segGatewayFormat);
    expect(m.callsTo('/network/edit_center_link_gateway')).toHaveLength(0);
    await typeInto(gateway, '10.254.0.0');
    await userEvent.click(okButton(new RegExp(M.segUiSaveSegment)));
    await waitFor(() => expect(m.callsTo('/network/edit_center_link_gateway')).toHaveLength(1));
    expect(m.callsTo('/network/edit_center_link_gateway')[0]!.body).toEqual({ network_number: 'N1', gateway: '10.254.0.0', mask: 16 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
