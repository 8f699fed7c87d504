import type { SaasDetail, SaasGroup } from '@hublink/contract';

export const groups: SaasGroup[] = [
  {
    category: 'east',
    list: [
      { router_name: 'saas-sh', note: 'shanghai-dc', online: 1, bandwidth: 20, max_bandwidth: 50, share: 1 },
      { router_name: 'saas-hz', note: '', online: 0, bandwidth: 0, max_bandwidth: 50, share: 1 },
    ],
  },
  { category: '', list: [{ router_name: 'saas-std', note: '', online: 1, bandwidth: 10, max_bandwidth: 10, share: 0 }] },
];

export const detail: SaasDetail = {
  ...groups[0]!.list[0]!,
  category: 'east',
  expire_date: '2030-01-01 00:00:00',
  temp_bandwidth: 80,
  temp_start_date: '2026-11-01 00:00:00',
  temp_expire_date: '2026-12-01 00:00:00',
  ip: ['203.0.113.7', '203.0.113.8'],
  router_model: 'HL-R300',
  router_ipv4: '192.168.1.1',
  router_mac: '00:11:22:33:44:55',
  version: '1.2.0',
  input: 1536,
  out: 3 * 1024 * 1024,
  online_time: '2026-11-23 08:00:00',
};
