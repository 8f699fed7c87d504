import type { RouterItem } from '@hublink/contract';

/** A member row as GET /router/lists answers it. */
export const member = (over: Partial<RouterItem> = {}): RouterItem => ({
  router_name: 'alice01',
  note: '',
  router_type: 2,
  phone: '',
  area_number: '',
  online_status: 0,
  version: '',
  os: '',
  source: 'console',
  status: 1,
  name: '',
  create_time: '2026-01-02 10:00:00',
  ...over,
});

export const hardwareRows = [member({ router_name: 'gw-beijing', router_type: 1, note: '北京机房', online_status: 1, version: '2.1.0' })];
export const softwareRows = [
  member({ router_name: 'alice01', note: '研发部研发部研发部研发部研发部研发部-张三', phone: '+86 13800000001', area_number: '86', os: 'windows', version: '1.2.0', online_status: 1 }),
  // Imported from the directory: its password is the directory's.
  member({ router_name: 'bob02', note: '测试', status: 0, source: 'ldap' }),
];
