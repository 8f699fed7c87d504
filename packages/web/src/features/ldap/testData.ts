import type { DataOf, LdapUser, ldapSyncStatus } from '@hublink/contract';

export { savedConfig } from '../../test/ldapFixtures';

export const ldapUser = (over: Partial<LdapUser> = {}): LdapUser => ({ username: 'alice', member_name: 'alice', description: 'dev', phone: '', email: '', issue: '', uuid: 'u-alice', exist: false, verify: '', disable: 0, ...over });

export const syncState = (over: Partial<DataOf<typeof ldapSyncStatus>['service']> = {}, count = 2): DataOf<typeof ldapSyncStatus> => ({
  count,
  service: { status: 1, update_time: '2026-03-01 10:05:00', cycle: 60, operation_hours: 3, message: '', ...over },
});
