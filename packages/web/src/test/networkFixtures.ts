import type { NetworkDetail, NetworkItem, NetworkLink, NetworkMember, NetworkQuota } from '@hublink/contract';

// Test data of the network pages (not shipped: only tests import it).

export const quota = (over: Partial<NetworkQuota> = {}): NetworkQuota => ({
  network_router_use: 2,
  network_router_count: 3,
  network_level: 1,
  network_center_count: 1,
  ...over,
});

export const item = (over: Partial<NetworkItem> = {}): NetworkItem => ({
  network_number: 'N1',
  network_name: '华东总部',
  network_type: 1,
  member_count: 3,
  fr_name: '',
  network_status: 1,
  create_time: '2026-01-01 10:00:00',
  ...over,
});

export const member = (over: Partial<NetworkMember> = {}): NetworkMember => ({
  router_name: 'R1',
  note: '',
  member_type: 'point',
  router_type: 1,
  online: 0,
  routing: 1,
  ov_id: { main: 0, backup: 0, main_name: '', backup_name: '', priority: 3 },
  default_route: 0,
  metric: 30,
  quagga: 0,
  mode: 1,
  fixed_port: { router: null, software: null },
  gateway: { router: null, software: null },
  ...over,
});

export const link = (over: Partial<NetworkLink> = {}): NetworkLink => ({
  router_name: 'R2',
  router_name_note: '',
  center_router_name: 'R1',
  center_router_name_note: '',
  vpn_online: 1,
  vpn_ip: '10.8.0.2',
  vpn_online_time: '2026-01-01 10:00:00',
  ...over,
});

/** A whole network's detail: its centers, member count and link count follow the members and links given. */
export const detail = (over: Partial<NetworkDetail> = {}): NetworkDetail => {
  const members = over.member ?? [member({ router_name: 'R1', member_type: 'center', online: 1 }), member({ router_name: 'R2', online: 1 })];
  const links = over.link ?? [link()];
  return {
    network_number: 'N1',
    network_name: '华东总部',
    network_status: 1,
    network_service: 1,
    network_type: 1,
    network_level: 1,
    member_count: members.length,
    member: members,
    centers: members.filter((m) => m.member_type === 'center'),
    link: links,
    link_count: links.length,
    network_config: { ...quota(), dns_quantity: 2 },
    ncp_ciphers: 'default',
    network_dns: [],
    network_fr: null,
    mode: 1,
    network_center_link: 0,
    network_center_link_show: 0,
    network_center_link_network: { gateway: '', mask: 0, public_ip: '', public_port: 0, static_port: 0, center_router_name: '', line_mode: 1 },
    network_interconnect: { enable: 0, segment: null },
    create_time: '2026-01-01 10:00:00',
    ...over,
  };
};
