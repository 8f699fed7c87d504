import { fmt, M, type PreviewAnswer } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { CenterSegmentDialog } from './CenterSegmentDialog';
import { member } from '../../test/networkFixtures';
import { okButton, pick, typeInto } from './segmentTesting';

const NOTHING: PreviewAnswer = { members: [], member_count: 0, reach: [], reach_count: 0, viewer: null };
const hw = (f: string) => `${M.segUiRouterSegment} ${f}`;
const sw = (f: string) => `${M.segUiSoftwareSegmentOptional} ${f}`;

function setup(answer: EnvelopeOf<'/network/edit_center_gateway'> = ok(null, '设置成功'), center = member({ router_name: 'C1', member_type: 'center' })) {
  const m = mockApi({ '/network/edit_center_gateway': answer, '/network/preview': ok(NOTHING) });
  const onClose = vi.fn();
  renderWithProviders(<CenterSegmentDialog networkNumber="N1" member={center} onClose={onClose} />);
  return { m, onClose };
}

describe('CenterSegmentDialog', () => {
  it('refuses an empty, an invalid, a non-network and an overlapping segment with the spec messages', async () => {
    const { m } = setup();
    await userEvent.click(okButton());
    // Only the hardware clients' segment (network_gateway) is required (spec 2 §5).
    await waitFor(() => expect(screen.getAllByText(M.segGatewayRequired)).toHaveLength(1));
    expect(screen.getAllByText(M.segMaskRange)).toHaveLength(1);
    await typeInto(hw(M.segUiGateway), '10.8.0');
    await shows(M.segGatewayInvalid);
    await typeInto(hw(M.segUiGateway), '10.8.0.1');
    await pick(hw(M.segUiMask), '/16');
    await shows(M.segGatewayFormat);
    await typeInto(hw(M.segUiGateway), '10.8.0.0');
    await typeInto(sw(M.segUiGateway), '10.8.1.0');
    await pick(sw(M.segUiMask), '/24');
    await userEvent.click(okButton());
    await shows(M.segSoftwareSame);
    expect(m.callsTo('/network/edit_center_gateway')).toHaveLength(0);
  });

  it('shows the server’s refusal of a segment over a route prefix and stays open', async () => {
    const msg = fmt(M.segOverlapPrefix, { segment: '10.8.0.0/16', prefix: '10.8.5.0/24' });
    const { m, onClose } = setup(refused(msg));
    await typeInto(hw(M.segUiGateway), '10.8.0.0');
    await pick(hw(M.segUiMask), '/16');
    await typeInto(sw(M.segUiGateway), '10.9.0.0');
    await pick(sw(M.segUiMask), '/24');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_center_gateway')).toHaveLength(1));
    await shows(msg);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('sends both segments and closes', async () => {
    const { m, onClose } = setup();
    await typeInto(hw(M.segUiGateway), '10.8.0.0');
    await pick(hw(M.segUiMask), '/16');
    await typeInto(sw(M.segUiGateway), '10.9.0.0');
    await pick(sw(M.segUiMask), '/24');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_center_gateway')).toHaveLength(1));
    expect(m.callsTo('/network/edit_center_gateway')[0]!.body).toEqual({
      network_number: 'N1',
      router_name: 'C1',
      router_network: { gateway: '10.8.0.0', mask: 16 },
      software_network: { gateway: '10.9.0.0', mask: 24 },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('leaves the software clients’ segment optional: blank, it sends none', async () => {
    const { m, onClose } = setup();
    await typeInto(hw(M.segUiGateway), '10.8.0.0');
    await pick(hw(M.segUiMask), '/16');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/edit_center_gateway')).toHaveLength(1));
    expect(m.callsTo('/network/edit_center_gateway')[0]!.body).toEqual({
      network_number: 'N1',
      router_name: 'C1',
      router_network: { gateway: '10.8.0.0', mask: 16 },
      software_network: null,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('previews the segments once they would pass, not an unchanged form', async () => {
    const { m } = setup();
    await screen.findByLabelText(hw(M.segUiGateway));
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await typeInto(hw(M.segUiGateway), '10.8.0.0');
    await pick(hw(M.segUiMask), '/16');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({
      network_number: 'N1',
      path: '/network/edit_center_gateway',
      body: { router_name: 'C1', router_network: { gateway: '10.8.0.0', mask: 16 }, software_network: null },
    });
  });

  it('names the center with its note (center_router_name_note) in the title', async () => {
    const seg = { gateway: '10.8.0.0', mask: 16, center_router_name_note: '上海总部' };
    setup(undefined, member({ router_name: 'C1', member_type: 'center', note: '上海总部', gateway: { router: seg, software: null } }));
    await shows(fmt(M.segUiCenterSegmentTitle, { name: fmt(M.networkNameWithNote, { name: 'C1', note: '上海总部' }) }));
  });
});
