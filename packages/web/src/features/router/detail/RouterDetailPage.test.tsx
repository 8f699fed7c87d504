import { CODE, fmt, M, type RouterDetail, CM } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../api/session';
import { mainUser, ramUser } from '../../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../../test/mockApi';
import { renderWithProviders, shows } from '../../../test/render';
import { member } from '../testData';
import { FakeSocket } from './fakeSocket';
import RouterDetailPage from './RouterDetailPage';

const detail: RouterDetail = {
  ...member({ router_name: 'gw-beijing', router_type: 1, note: '北京机房', online_status: 1, version: '2.1.0' }),
  router_model: 'HL-R300',
  router_ipv4: '203.0.113.7',
  router_mac: '00:11:22:33:44:55',
  online_time: '2026-01-02 10:00:00',
  network: [{ network_name: '总部网络', network_number: 'N100', network_member_count: 3 }],
  interfaces: [
    { interface_uuid: 'u1', interface: 'eth0', protocol: 'dhcp', ipv4: '192.168.1.2', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 },
    { interface_uuid: 'u2', interface: 'ppp0', protocol: 'pppoe', ipv4: '', ipv4_subnet_mask: '', mtu: 1492 },
  ],
  input: 1536,
  out: 5_000_000_000,
};

const LONG = 30_000;

describe('RouterDetailPage', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    session.setToken('tok-1', 3600);
  });

  it('tells how to connect a router that never connected: the command, the address and where its secret goes', async () => {
    session.setUser(mainUser);
    mockApi({ '/router/info': ok({ ...detail, online_status: 0, online_time: '' }) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows(CM.onboardTitle);
    expect(screen.getByText(fmt(CM.onboardCommand, { url: window.location.origin, name: 'gw-beijing' }))).toBeInTheDocument();
    expect(screen.getByText(CM.onboardSecret, { exact: false })).toBeInTheDocument();
  });

  it('shows the info, the interfaces, the networks, and live charts with the rate in MB/s', async () => {
    session.setUser(mainUser);
    const m = mockApi({ '/router/info': ok(detail) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows('HL-R300');
    expect(screen.queryByText(CM.onboardTitle)).toBeNull();
    expect(m.callsTo('/router/info')[0]!.query).toEqual({ router_name: 'gw-beijing' });
    for (const text of ['北京机房', M.routerConnected, '203.0.113.7', '00:11:22:33:44:55', '1.50 KB', '4.66 GB', 'PPPoE', '255.255.255.0']) {
      expect(screen.getAllByText(text)[0]).toBeInTheDocument();
    }
    expect(screen.getByRole('link', { name: '总部网络' })).toHaveAttribute('href', `/network/detail?network_name=${encodeURIComponent('总部网络')}&network_number=N100`);
    expect(screen.getByRole('link', { name: M.routerNetworksAll })).toHaveAttribute('href', '/network/lists');

    const s = FakeSocket.latest();
    expect(s.url).toContain('router_name=gw-beijing');
    s.receive({ code: CODE.ok, msg: 'success' });
    s.receive({ code: CODE.ok, type: 'interface', data: [{ interface: 'eth0', time: 100, down: 12.5, upload: 100 }] });
    const inbound = screen.getByRole('img', { name: `eth0 ${M.routerTrafficIn}` }).closest('.ant-card') as HTMLElement;
    const outbound = screen.getByRole('img', { name: `eth0 ${M.routerTrafficOut}` }).closest('.ant-card') as HTMLElement;
    await waitFor(() => expect(within(inbound).getByText('1.56 MB/s')).toBeInTheDocument());
    expect(within(outbound).getByText('12.50 MB/s')).toBeInTheDocument();
    // Every reported interface has its pair of charts before any traffic comes.
    expect(screen.getByRole('img', { name: `ppp0 ${M.routerTrafficOut}` })).toBeInTheDocument();
  }, LONG);

  it('opens a software member too (spec 3 §2): its detail and status views, not the hardware traffic view', async () => {
    session.setUser(mainUser);
    const m = mockApi({ '/router/info': ok({ ...detail, router_name: 'alice01', router_type: 2, interfaces: [], network: [] }) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=alice01&view=traffic' });
    await shows(M.routerInfoSoftwareTitle);
    const views = screen.getByRole('radiogroup', { name: M.routerViewLabel });
    expect(within(views).getAllByRole('radio').map((r) => r.closest('label')!.textContent)).toEqual([M.routerViewSoftwareDetail, M.routerViewSoftwareStatus]);
    expect(within(views).getByRole('radio', { name: M.routerViewSoftwareDetail })).toBeChecked();
    expect(m.callsTo('/saas/traffic')).toHaveLength(0);
  }, LONG);

  it('edits the note when the role allows it, not otherwise', async () => {
    session.setUser(mainUser);
    const m = mockApi({ '/router/info': ok(detail), '/router/note': ok(null, M.saved) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows('HL-R300');
    const u = userEvent.setup({ delay: null });
    await u.click(screen.getByRole('button', { name: M.routerEditNote }));
    const input = await screen.findByRole('textbox', { name: M.memberNoteLabel });
    await u.clear(input);
    await u.type(input, '上海机房');
    await u.click(screen.getByRole('button', { name: /确\s*定|保\s*存/ }));
    await waitFor(() => expect(m.callsTo('/router/note')[0]!.body).toEqual({ router_name: 'gw-beijing', note: '上海机房' }));
  }, LONG);

  it('offers no note edit to a sub-account whose role cannot edit members', async () => {
    session.setUser({ ...ramUser, role: { 'easylink.router': { create: 0, edit: 0, delete: 0 }, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } } });
    mockApi({ '/router/info': ok(detail) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows('HL-R300');
    expect(screen.queryByRole('button', { name: M.routerEditNote })).not.toBeInTheDocument();
  }, LONG);

  it('says why the stream ended, and that the browser lacks WebSocket', async () => {
    session.setUser(mainUser);
    mockApi({ '/router/info': ok(detail) });
    const first = renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows('HL-R300');
    FakeSocket.latest().receive({ code: CODE.tooMany, msg: M.tooManyRequests });
    await shows(`实时流量已停止：${M.tooManyRequests}`);
    first.unmount();

    vi.stubGlobal('WebSocket', undefined);
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows(M.routerTrafficNoWebSocket);
  }, LONG);

  it('goes to the member list when the member is gone (204), and without router_name', async () => {
    session.setUser(mainUser);
    mockApi({ '/router/info': refused(M.memberNotFound, CODE.notFound) });
    const gone = renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=old', path: '/router/detail' });
    await waitFor(() => expect(gone.location()).toBe('/router/lists'));
    expect(FakeSocket.all).toHaveLength(0);
    gone.unmount();

    const missing = renderWithProviders(<RouterDetailPage />, { route: '/router/detail', path: '/router/detail' });
    await waitFor(() => expect(missing.location()).toBe('/router/lists'));
  }, LONG);
});
