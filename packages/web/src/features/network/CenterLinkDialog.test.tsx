import { fmt, M, type PreviewAnswer } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type EnvelopeOf } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { CenterLinkDialog } from './CenterLinkDialog';
import { detail, member } from '../../test/networkFixtures';
import { okButton, pick, typeInto } from './segmentTesting';

const centers = [member({ router_name: 'C1', member_type: 'center' }), member({ router_name: 'C2', member_type: 'center' })];
const NOTHING: PreviewAnswer = { members: [], member_count: 0, reach: [], reach_count: 0, viewer: null };
const EMPTY = { gateway: '', mask: 0, public_ip: '', public_port: 0, static_port: 0, center_router_name: '', line_mode: 1 };

function setup(on = 0, saved = EMPTY, answer: EnvelopeOf<'/network/center_link'> = ok(null, '设置成功')) {
  const m = mockApi({ '/network/center_link': answer, '/network/preview': ok(NOTHING) });
  const onClose = vi.fn();
  renderWithProviders(
    <CenterLinkDialog detail={detail({ member: centers, network_center_link_show: 1, network_center_link: on, network_center_link_network: saved })} open onClose={onClose} />,
  );
  return { m, onClose };
}

describe('CenterLinkDialog', () => {
  it('off: the submit says 启用; it needs the server, then the ports with a public IP', async () => {
    const { m, onClose } = setup();
    const enable = () => okButton(new RegExp(M.segUiCenterLinkEnable.split('').join('\\s*')));
    await userEvent.click(enable());
    await shows(M.segServerRequired);
    await pick(M.segUiCenterLinkServer, 'C2');
    await userEvent.click(enable());
    await shows(M.segLinkGatewayRequired);
    await typeInto(M.segUiPublicIp, '198.51.100.7');
    await userEvent.click(enable());
    // Every error at once: both ports, not the local one only after the public one is fixed.
    await shows(M.segPublicPortRequired);
    expect(screen.getByText(M.segLocalPortRequired)).toBeInTheDocument();
    await typeInto(M.segUiPublicPort, '40000');
    await userEvent.click(enable());
    await shows(M.segLocalPortRequired);
    expect(m.callsTo('/network/center_link')).toHaveLength(0);
    await typeInto(M.segUiLocalPort, '40001');
    await userEvent.click(enable());
    await waitFor(() => expect(m.callsTo('/network/center_link')).toHaveLength(1));
    expect(m.callsTo('/network/center_link')[0]!.body).toEqual({
      network_number: 'N1',
      enable: 1,
      center_router_name: 'C2',
      public_ip: '198.51.100.7',
      public_port: 40000,
      static_port: 40001,
      gateway: '',
      mask: '',
      line_mode: 1,
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('names its setting 线路模式 (双主/主备), apart from the dial mode (拨号模式)', async () => {
    setup();
    expect(await screen.findByRole('radiogroup', { name: '线路模式' })).toBeInTheDocument();
    expect(M.networkMode).toBe('拨号模式');
    expect(M.networkMenuMode).toBe('拨号模式');
    expect(M.popMode).toBe('拨号模式');
  });

  it('shows the line mode as saved, and sends 主备 with the server as the main line', async () => {
    const { m, onClose } = setup();
    const dual = await screen.findByRole('radio', { name: M.netSetRoutingDual });
    expect(dual).toBeChecked();
    expect(screen.getByRole('radio', { name: M.netSetRoutingMainBackup })).not.toBeChecked();
    await pick(M.segUiCenterLinkServer, 'C2');
    await userEvent.click(screen.getByRole('radio', { name: M.netSetRoutingMainBackup }));
    await shows(fmt(M.segUiCenterLinkMainBackupHint, { name: 'C2', other: 'C1' }));
    await typeInto(M.segUiGateway, '10.50.0.0');
    await pick(M.segUiMask, '/24');
    await userEvent.click(okButton(new RegExp(M.segUiCenterLinkEnable.split('').join('\\s*'))));
    await waitFor(() => expect(m.callsTo('/network/center_link')).toHaveLength(1));
    expect(m.callsTo('/network/center_link')[0]!.body).toMatchObject({ enable: 1, center_router_name: 'C2', gateway: '10.50.0.0', mask: 24, line_mode: 2 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('on in 主备: shows it checked, saves nothing unchanged, and sends a change of the line mode alone', async () => {
    const { m, onClose } = setup(1, { ...EMPTY, gateway: '10.50.0.0', mask: 24, center_router_name: 'C1', line_mode: 2 });
    expect(await screen.findByRole('radio', { name: M.netSetRoutingMainBackup })).toBeChecked();
    await shows(fmt(M.segUiCenterLinkMainBackupHint, { name: 'C1', other: 'C2' }));
    await userEvent.click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(m.callsTo('/network/center_link')).toHaveLength(0);
    await userEvent.click(screen.getByRole('radio', { name: M.netSetRoutingDual }));
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/center_link')).toHaveLength(1));
    expect(m.callsTo('/network/center_link')[0]!.body).toMatchObject({ enable: 1, center_router_name: 'C1', gateway: '10.50.0.0', mask: 24, line_mode: 1 });
  });

  it('shows the server’s refusal and stays open', async () => {
    const msg = fmt(M.segOverlapPrefix, { segment: '10.50.0.0/24', prefix: '10.50.0.0/16' });
    const { m, onClose } = setup(0, EMPTY, refused(msg));
    await pick(M.segUiCenterLinkServer, 'C1');
    await typeInto(M.segUiGateway, '10.50.0.0');
    await pick(M.segUiMask, '/24');
    await userEvent.click(okButton(new RegExp(M.segUiCenterLinkEnable.split('').join('\\s*'))));
    await waitFor(() => expect(m.callsTo('/network/center_link')).toHaveLength(1));
    await shows(msg);
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('previews a changed setting, and the closing of the link in its confirmation, not an unchanged form', async () => {
    const { m } = setup(1, { ...EMPTY, gateway: '10.50.0.0', mask: 24, center_router_name: 'C1', line_mode: 2 });
    expect(await screen.findByRole('radio', { name: M.netSetRoutingMainBackup })).toBeChecked();
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: M.netSetRoutingDual }));
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({
      network_number: 'N1',
      path: '/network/center_link',
      body: { enable: 1, center_router_name: 'C1', public_ip: '', public_port: '', static_port: '', gateway: '10.50.0.0', mask: 24, line_mode: 1 },
    });
    await userEvent.click(screen.getByRole('button', { name: M.segUiCenterLinkClose }));
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(2));
    expect(m.callsTo('/network/preview')[1]!.body).toEqual({ network_number: 'N1', path: '/network/center_link', body: { enable: 0 } });
  });

  it('on: offers to close the link after a confirmation', async () => {
    const { m, onClose } = setup(1, { ...EMPTY, gateway: '10.50.0.0', mask: 24, center_router_name: 'C1' });
    expect(await screen.findByText(M.segUiCenterLinkOn)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: M.segUiCenterLinkClose }));
    await shows(M.segUiCenterLinkCloseConfirm);
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/center_link')).toHaveLength(1));
    expect(m.callsTo('/network/center_link')[0]!.body).toEqual({ network_number: 'N1', enable: 0 });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
