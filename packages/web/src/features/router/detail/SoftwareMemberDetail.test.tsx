import { M, type RouterDetail } from '@hublink/contract';
import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../../api/session';
import { mainUser } from '../../../test/sessionFixtures';
import { mockApi, ok } from '../../../test/mockApi';
import { renderWithProviders, shows } from '../../../test/render';
import { member } from '../testData';
import { FakeSocket } from './fakeSocket';
import RouterDetailPage from './RouterDetailPage';

const network = { network_name: '总部网络', network_number: 'N100', network_member_count: 3 };

/** A software client as GET /router/info answers for it: no model, address or MAC (the gateway writes those for routers only). */
const software: RouterDetail = {
  ...member({ router_name: 'alice01', router_type: 2, note: '研发部-张三', phone: '+86 13800000001', area_number: '86', os: 'windows', version: '1.2.0', online_status: 1, status: 1 }),
  router_model: '',
  router_ipv4: '',
  router_mac: '',
  online_time: '2026-01-02 10:00:00',
  network: [network],
  interfaces: [],
  input: 1536,
  out: 2048,
};

const hardware: RouterDetail = {
  ...member({ router_name: 'gw-beijing', router_type: 1, note: '北京机房', online_status: 1, version: '2.1.0' }),
  router_model: 'HL-R300',
  router_ipv4: '203.0.113.7',
  router_mac: '00:11:22:33:44:55',
  online_time: '2026-01-02 10:00:00',
  network: [network],
  interfaces: [{ interface_uuid: 'u1', interface: 'eth0', protocol: 'dhcp', ipv4: '192.168.1.2', ipv4_subnet_mask: '255.255.255.0', mtu: 1500 }],
  input: 1536,
  out: 2048,
};

/** The info card's labels and values, in order, as the user reads them. */
function fields(card: HTMLElement): [string, string][] {
  return [...card.querySelectorAll('.ant-descriptions-item')].map((item) => [
    item.querySelector('.ant-descriptions-item-label')!.textContent!,
    item.querySelector('.ant-descriptions-item-content')!.textContent!,
  ]);
}

const cardTitled = (title: string) => screen.getByText(title, { selector: '.ant-card-head-title' }).closest('.ant-card') as HTMLElement;
const viewLabels = () =>
  within(screen.getByRole('radiogroup', { name: M.routerViewLabel }))
    .getAllByRole('radio')
    .map((r) => r.closest('label')!.textContent);

/** What a hardware router's page says and a software client's must not. */
const HARDWARE_WORDS = [
  M.routerInfoTitle,
  M.routerInfoName,
  M.routerInfoModel,
  M.routerInfoIpv4,
  M.routerInfoMac,
  M.routerInfoOnline,
  M.routerConnected,
  M.routerInfoOnlineTime,
  M.routerViewDetail,
  M.routerViewStatus,
  M.routerTrafficWaiting,
];

const LONG = 30_000;

describe('RouterDetailPage for a software member (issue 31)', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.stubGlobal('WebSocket', FakeSocket);
    session.setToken('tok-1', 3600);
    session.setUser(mainUser);
  });

  it('words the detail as the software member list does: 账号, 手机号码, 登录状态, 状态, 系统; no device wording or fields', async () => {
    mockApi({ '/router/info': ok(software) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=alice01' });
    await shows(M.routerInfoSoftwareTitle);
    expect(fields(cardTitled(M.routerInfoSoftwareTitle))).toEqual([
      [M.memberColAccount, 'alice01'],
      [M.routerInfoNote, '研发部-张三'],
      [M.memberColPhone, '+86 13800000001'],
      [M.memberColOnline, M.memberOnline],
      [M.memberColStatus, M.memberStatusNormal],
      [M.memberColOs, 'windows'],
      [M.memberColVersion, '1.2.0'],
      [M.memberLogTime, '2026-01-02 10:00:00'],
      [M.routerInfoInput, '1.50 KB'],
      [M.routerInfoOut, '2.00 KB'],
      [M.memberColCreateTime, '2026-01-02 10:00:00'],
    ]);
    expect(viewLabels()).toEqual([M.routerViewSoftwareDetail, M.routerViewSoftwareStatus]);
    expect(screen.getByText(M.routerTrafficWaitingSoftware)).toBeInTheDocument();
    for (const text of HARDWARE_WORDS) expect(screen.queryByText(text)).toBeNull();
  }, LONG);

  it('says 未登录 and 禁用 for a disabled client that is not logged in', async () => {
    mockApi({ '/router/info': ok({ ...software, online_status: 0, online_time: '', status: 0, phone: '', os: '' }) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=alice01' });
    await shows(M.routerInfoSoftwareTitle);
    const shown = new Map(fields(cardTitled(M.routerInfoSoftwareTitle)));
    expect(shown.get(M.memberColOnline)).toBe(M.memberOffline);
    expect(shown.get(M.memberColStatus)).toBe(M.memberStatusOff);
    expect(shown.get(M.memberColPhone)).toBe('-');
    expect(shown.get(M.memberLogTime)).toBe('-');
    expect(screen.queryByText(M.routerDisconnected)).toBeNull();
  }, LONG);

  it('words the status view as a member’s too', async () => {
    mockApi({ '/router/info': ok(software), '/network/status': ok({ network_status: 1, link: [], link_count: 0, online: {}, device: {} }) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=alice01&view=status' });
    await shows(M.routerStatusTitle);
    expect(fields(cardTitled(M.routerStatusTitle))).toEqual([
      [M.memberColOnline, M.memberOnline],
      [M.memberLogTime, '2026-01-02 10:00:00'],
      [M.routerStatusNetworks, '1'],
    ]);
    expect(screen.getByRole('radio', { name: M.routerViewSoftwareStatus })).toBeChecked();
    expect(screen.getByText(M.routerTrafficWaitingSoftware)).toBeInTheDocument();
    for (const text of HARDWARE_WORDS) expect(screen.queryByText(text)).toBeNull();
  }, LONG);

  it('leaves a hardware router’s page as it was', async () => {
    mockApi({ '/router/info': ok({ ...hardware, interfaces: [] }) });
    renderWithProviders(<RouterDetailPage />, { route: '/router/detail?router_name=gw-beijing' });
    await shows(M.routerInfoTitle);
    expect(fields(cardTitled(M.routerInfoTitle))).toEqual([
      [M.routerInfoName, 'gw-beijing'],
      [M.routerInfoNote, '北京机房'],
      [M.routerInfoOnline, M.routerConnected],
      [M.routerInfoModel, 'HL-R300'],
      [M.routerInfoIpv4, '203.0.113.7'],
      [M.routerInfoMac, '00:11:22:33:44:55'],
      [M.routerInfoVersion, '2.1.0'],
      [M.routerInfoOnlineTime, '2026-01-02 10:00:00'],
      [M.routerInfoInput, '1.50 KB'],
      [M.routerInfoOut, '2.00 KB'],
    ]);
    expect(viewLabels()).toEqual([M.routerViewDetail, M.routerViewTraffic, M.routerViewStatus]);
    expect(screen.getByText(M.routerTrafficWaiting)).toBeInTheDocument();
    expect(screen.queryByText(M.routerInfoSoftwareTitle)).toBeNull();
  }, LONG);
});
