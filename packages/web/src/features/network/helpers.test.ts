import { fmt, M, type RoleAuth, type UserMessage } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { configEntries } from './configMenu';
import { detail, link, member } from '../../test/networkFixtures';
import { shortNote } from '../../components/shortNote';
import { defaultRouteLabel, networkTypeLabel, priorityOf, routingLabel } from './labels';
import { liveView } from './liveView';
import { networkRights } from './permissions';

const role = (network: Partial<RoleAuth['easylink.network']>): RoleAuth => ({
  'easylink.router': { create: 0, edit: 0, delete: 0 },
  'easylink.network': { create: 1, edit: 1, delete: 1, network: [], ...network },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
});
const withRole = (r: RoleAuth) => ({ ...ramUser, role: r }) as UserMessage;

describe('network helpers', () => {
  it('labels types, priorities, default routes and long notes', () => {
    expect([1, 2, 3, 0].map(networkTypeLabel)).toEqual([M.networkTypeHub, M.networkTypeP2p, M.networkTypePop, M.networkTypePop]);
    expect([30, 60, 90, 120, 150, 45].map(priorityOf)).toEqual([1, 2, 3, 4, 5, 0]);
    expect(defaultRouteLabel(0, 30)).toBe(M.networkRouteOff);
    expect(defaultRouteLabel(1, 90)).toBe(`${M.networkRouteAdvertise} 优先级3`);
    expect(defaultRouteLabel(2, 30)).toBe(M.networkRouteReceive);
    expect(shortNote('一二三四五六七八九十一二三四五六七八')).toBe('一二三四五六七八九十一二三四五六七八');
    expect(shortNote('一二三四五六七八九十一二三四五六七八九')).toBe('一二三四五六七八九十一二三四五六七八…');
  });

  it('labels line main/backup from the twin-center line mode and the centers’ lines', () => {
    const link = detail().network_center_link_network;
    const centers = [member({ router_name: 'C1', member_type: 'center', routing: 2 }), member({ router_name: 'C2', member_type: 'center', routing: 1 }), member({ router_name: 'P1' })];
    expect(routingLabel(detail({ member: centers, network_center_link_network: { ...link, line_mode: 1 } }))).toBe(M.netSetRoutingDual);
    expect(routingLabel(detail({ member: centers, network_center_link_network: { ...link, line_mode: 2 } }))).toBe(fmt(M.netSetRoutingMainBackupOf, { name: 'C2' }));
    expect(routingLabel(detail({ member: centers.slice(1), network_center_link_network: { ...link, line_mode: 2 } }))).toBe('-');
  });

  it('a main account may do everything; a sub-account what its role grants, and never create with listed networks', () => {
    expect(networkRights(mainUser)).toEqual({ create: true, edit: true, delete: true });
    expect(networkRights(withRole(role({ create: 1, edit: 0, delete: 1 })))).toEqual({ create: true, edit: false, delete: true });
    expect(networkRights(withRole(role({ network: ['N1'] })))).toEqual({ create: false, edit: true, delete: true });
    expect(networkRights(withRole(role({ create: 0, edit: 0, delete: 0 })))).toEqual({ create: false, edit: false, delete: false });
    // Without the role in the user message nothing is hidden; the server's guard decides.
    expect(networkRights(ramUser)).toEqual({ create: true, edit: true, delete: true });
  });

  it('offers the config dialogs by the conditions of spec 2', () => {
    const keys = (d: Parameters<typeof configEntries>[0], quagga = 0) => configEntries(d, { quagga, quagga_advanced: 0, default_route: 0 }).map((e) => e.key);
    const one = detail({ member: [member({ member_type: 'center' }), member({ router_name: 'R2' })] });
    expect(keys(one)).toEqual(['access_pop', 'segment', 'interconnect', 'ciphers', 'mode', 'dns', 'resend']);
    expect(keys(detail({ member: [member()] }))).not.toContain('segment');
    const two = detail({
      member: [member({ member_type: 'center' }), member({ router_name: 'R2', member_type: 'center' })],
      network_center_link_show: 1,
      network_fr: { network_fr_id: 1, shortname: 'POP-1' },
    });
    expect(keys(two, 1)).toEqual(['routing', 'center_link', 'fr', 'access_pop', 'segment', 'interconnect', 'ciphers', 'mode', 'prefix', 'dns', 'resend']);
    expect(keys(detail({ member: [member()], network_fr: { network_fr_id: 1, shortname: 'POP-1' } }))).toContain('segment');
  });

  it('lays the latest poll over the loaded detail', () => {
    const d = detail();
    expect(liveView(d, undefined)).toEqual({ network_status: 1, member: d.member, centers: d.centers, link: d.link, device: {} });
    const device = { R1: { config_version: 2, applied_version: 2, applied_error: '', command: null } };
    const polled = liveView(d, { network_status: 0, link: [link({ vpn_online: 0 })], online: { R1: 0 }, device });
    expect(polled.device).toBe(device);
    expect(polled.network_status).toBe(0);
    expect(polled.member.map((m) => [m.router_name, m.online])).toEqual([
      ['R1', 0],
      ['R2', 1],
    ]);
    expect(polled.centers.map((m) => [m.router_name, m.online])).toEqual([['R1', 0]]);
    expect(polled.link[0]!.vpn_online).toBe(0);
  });
});
