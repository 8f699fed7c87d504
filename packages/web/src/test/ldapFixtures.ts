import type { LdapConfig } from '@hublink/contract';

/** A saved configuration as GET /ldap/config answers it. */
export const savedConfig = (over: Partial<LdapConfig> = {}): LdapConfig => ({
  mode: 'public',
  router_name: '',
  domain: 'example.com',
  host: 'ldap.example.com',
  port: 389,
  base_dn: 'dc=example,dc=com',
  use_ssl: 0,
  use_tls: 0,
  ca_id: null,
  file_name: '',
  username: 'cn=admin,dc=example,dc=com',
  password: '******',
  type: 1,
  network_number: 'N1',
  network_name: 'HQ',
  sync_mode: 1,
  update_time: '2026-03-01 10:00:00',
  create_time: '2026-03-01 09:00:00',
  status: 1,
  ...over,
});
