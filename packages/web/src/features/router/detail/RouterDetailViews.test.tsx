import { CODE, M, type RouterDetail } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../api/session';
import { mainUser } from '../../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../../test/mockApi';
import { renderWithProviders, shows } from '../../../test/render';
import { member } from '../testData';
import { FakeSocket } from './fakeSocket';
import RouterDetailPage from './RouterDetailPage';

// jsdom draws no canvas: the chart is a labelled box here.
vi.mock('../../../components/device/Chart', () => ({ Chart: ({ label }: { label: string }) => <div role="img" aria-label={label} /> }));

const detail: RouterDetail = {
  ...member({ router_name: 'gw-beijing', router_type: 1, note: '北京机房', online_status: 1, version: '2.1.0' }),
  router_model: 'HL-R300',
  router_ipv4: '203.0.113.7',
  router_mac: '00:11:22:33:44:55',
  online_time: '2026-01-02 10:00:00',
  network: [{ network_name: '华东区域总部网络', network_number: 'N100', network_member_count: 3 }],
  interfaces: [{ interface_uuid: 'u1', interface: 'eth0', protocol: 'dhcp', ipv4: '192.168.1.2', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 }],
  input: 1536,
  out: 2048,
};

const link = { router_name: 'gw-beijing', router_name_note: '', center_router_name: 'center-1', center_router_name_note: '', vpn_online: 1, vpn_ip: '10.8.0.2', vpn_online_time: '' };
const connect = { ip: '172.16.0.2', origin: '10.1.1.1:5000', input: 1024, out: 2048, session_date: '2026-11-23 09:00:00', online_time: 61, stop_time: '' };

function api(traffic = ok([{ time: '2026-11-23 10:00:00', down: 1.5, upload: 0.5 }])) {
  return mockApi({
    '/router/info': ok(detail),
    '/saas/traffic': traffic,
    '/saas/connect': { code: 200, msg: 'success', data: [connect], count: 1 },
    '/saas/app_log': ok([{ name: 'wechat', download_flow_sum: 2048, upload_flow_sum: 100 }]),
    '/network/status': ok({ network_status: 1, link: [link], link_count: 1, link_up: 1, online: {}, device: { 'gw-beijing': { config_version: 3, applied_version: 3, applied_error: '', command: null } } }),
  });
}

const u = () => userEvent.setup({ delay: null });
const LONG = 60_000;
const PAGE = '/router/detail';

describe('RouterDetailPage views', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    session.setToken('tok-1', 3600);
    session.setUser(mainUser);
  });

  it('switches from the detail to the second hardware view and the device status view through ?view', async () => {
    const m = api();
    const page = renderWithProviders(<RouterDetailPage />, { route: `${PAGE}?router_name=gw-beijing`, path: PAGE });
    await shows(M.routerNetworksAll);
    expect(m.callsTo('/saas/traffic')).toHaveLength(0);

    await u().click(screen.getByText(M.routerViewTraffic));
    await waitFor(() => expect(page.location()).toBe(`${PAGE}?router_name=gw-beijing&view=traffic`));
    await shows('172.16.0.2');
    expect(screen.getByRole('img', { name: M.saasTabTraffic })).toBeInTheDocument();
    expect(m.callsTo('/saas/traffic')[0]!.query).toEqual({ router_name: 'gw-beijing' });
    await u().click(screen.getByRole('tab', { name: M.routerTabAnalysis }));
    await shows('wechat');

    await u().click(screen.getByText(M.routerViewStatus));
    await waitFor(() => expect(page.location()).toBe(`${PAGE}?router_name=gw-beijing&view=status`));
    await shows(M.routerStatusTitle);
    await shows(`${M.routerStatusLinkUp} 1/1`);
    expect(m.callsTo('/network/status')[0]!.query).toEqual({ network_number: 'N100', router_name: 'gw-beijing', link_page: '1', page_size: '1' });
    expect(screen.getAllByText(M.routerStatusApplied)[0]).toBeInTheDocument();
    expect(screen.getAllByRole('img', { name: `eth0 ${M.routerTrafficIn}` })[0]).toBeInTheDocument();

    await u().click(screen.getByText(M.routerViewDetail));
    await waitFor(() => expect(page.location()).toBe(`${PAGE}?router_name=gw-beijing`));
  }, LONG);

  it('the status view names its networks cut after 6 characters, the whole name in the tooltip', async () => {
    api();
    renderWithProviders(<RouterDetailPage />, { route: `${PAGE}?router_name=gw-beijing&view=status`, path: PAGE });
    await shows('华东区域总部…');
    expect(screen.queryByText('华东区域总部网络')).not.toBeInTheDocument();
    await u().hover(screen.getAllByText('华东区域总部…')[0]!);
    await waitFor(() => expect(screen.getByRole('tooltip')).toHaveTextContent('华东区域总部网络'));
  }, LONG);

  it('the second view goes back when the server answers 204 for the member, and without router_name', async () => {
    api(refused(M.saasDeviceNotFound, CODE.notFound));
    const gone = renderWithProviders(<RouterDetailPage />, { route: `${PAGE}?router_name=app-1&view=traffic`, path: PAGE });
    await waitFor(() => expect(gone.location()).toBe('/router/lists'));
    gone.unmount();

    const missing = renderWithProviders(<RouterDetailPage />, { route: `${PAGE}?view=traffic`, path: PAGE });
    await waitFor(() => expect(missing.location()).toBe('/router/lists'));
  }, LONG);
});
