import { M, type PreviewAnswer } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { FixedPortDialog } from './FixedPortDialog';
import { member } from '../../test/networkFixtures';
import { okButton, typeInto } from './segmentTesting';

const NOTHING: PreviewAnswer = { members: [], member_count: 0, reach: [], reach_count: 0, viewer: null };
const hw = (f: string) => `${M.segUiRouterService} ${f}`;
const sw = (f: string) => `${M.segUiSoftwareService} ${f}`;

function setup() {
  const m = mockApi({ '/network/fixed_port': ok(null, '设置成功'), '/network/preview': ok(NOTHING) });
  const onClose = vi.fn();
  const center = member({ router_name: 'C1', member_type: 'center', fixed_port: { router: { public_ip: '', public_port: 30000, static_port: 30001 }, software: null } });
  renderWithProviders(<FixedPortDialog networkNumber="N1" member={center} onClose={onClose} />);
  return { m, onClose };
}

describe('FixedPortDialog', () => {
  it('closes without a call when nothing changed', async () => {
    const { m, onClose } = setup();
    expect(await screen.findByDisplayValue('30001')).toBeInTheDocument();
    await userEvent.click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/network/fixed_port')).toHaveLength(0);
  });

  it('refuses a half-filled service, a port out of range and equal local ports, then sends both services', async () => {
    const { m, onClose } = setup();
    await screen.findByDisplayValue('30001');
    await typeInto(sw(M.segUiPublicIp), '203.0.113');
    await userEvent.click(okButton());
    await shows(M.segPublicIpInvalid);
    await shows('公网端口不能为空！');
    await shows('本地端口不能为空！');
    await typeInto(sw(M.segUiPublicIp), '203.0.113.5');
    await typeInto(sw(M.segUiPublicPort), '80');
    await typeInto(sw(M.segUiLocalPort), '30001');
    await userEvent.click(okButton());
    await shows(M.segPortRange);
    await shows(M.segLocalPortSame);
    expect(m.callsTo('/network/fixed_port')).toHaveLength(0);

    await typeInto(sw(M.segUiPublicPort), '30010');
    await typeInto(sw(M.segUiLocalPort), '30011');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/network/fixed_port')).toHaveLength(1));
    expect(m.callsTo('/network/fixed_port')[0]!.body).toEqual({
      network_number: 'N1',
      router_name: 'C1',
      router_service: { public_ip: '', public_port: '30000', static_port: '30001' },
      software_service: { public_ip: '203.0.113.5', public_port: '30010', static_port: '30011' },
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('previews the ports it would save, not an unchanged form', async () => {
    const { m } = setup();
    await screen.findByDisplayValue('30001');
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await typeInto(hw(M.segUiLocalPort), '30002');
    await waitFor(() => expect(m.callsTo('/network/preview')).toHaveLength(1));
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({
      network_number: 'N1',
      path: '/network/fixed_port',
      body: { router_name: 'C1', router_service: { public_ip: '', public_port: '30000', static_port: '30002' }, software_service: { public_ip: '', public_port: '', static_port: '' } },
    });
  });
});
