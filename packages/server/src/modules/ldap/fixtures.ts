import { Attribute, Change, Client } from 'ldapts';
import { listLdapUsers, saveLdap, type LdapUser } from '@hublink/contract';
import type { TestApp } from '../../../test/helpers';
import type { Slapd, TestUser } from '../../../test/slapd';

// Shared by the LDAP module's tests: a configuration of a test directory, a tenant with LDAP on, the listing.

export type ConfigBody = Record<string, unknown>;

/** A form's body for a slapd, plain LDAP, bound as its administrator. */
export const configOf = (s: Slapd, over: ConfigBody = {}): ConfigBody => ({
  mode: 'public',
  domain: 'example.com',
  host: s.host,
  port: String(s.port),
  base_dn: s.suffix,
  use_ssl: 0,
  type: 1,
  username: s.adminDn,
  password: s.adminPassword,
  sync_mode: 1,
  network_number: '',
  ...over,
});

/** Marks a domain of the tenant as verified, as /ldap/verify_domain does (its own test fetches the file for real). */
export async function verifiedDomain(t: TestApp, tenantId: number, domain = 'example.com') {
  await t.db
    .insertInto('ldap_domain')
    .values({ tenant_id: tenantId, domain, token: 'test-token', verify_time: Date.now(), create_time: Date.now() })
    .onConflict((oc) => oc.columns(['tenant_id', 'domain']).doUpdateSet({ verify_time: Date.now() }))
    .execute();
}

/** Turns LDAP on for a tenant through /ldap/save (which also reads the directory's users); fails the test when refused. */
export async function enableLdap(t: TestApp, main: { token: string; account: { id: number } }, s: Slapd, over: ConfigBody = {}) {
  await verifiedDomain(t, main.account.id, String(over.domain ?? 'example.com'));
  const res = await t.call(saveLdap, { token: main.token, body: configOf(s, over) });
  if (res.code !== 200) throw new Error(`save: ${res.msg}`);
}

/** The whole listing (all pages) and its hash. */
export async function listing(t: TestApp, token: string, query: Record<string, unknown> = {}): Promise<{ users: LdapUser[]; hash: string; count: number }> {
  const res = await t.call(listLdapUsers, { token, query: { limit: 100, ...query } });
  if (res.code !== 200) throw new Error(`listing: ${res.msg}`);
  return { users: res.data!.list, hash: res.data!.hash, count: res.count! };
}

/** A listed user by name. */
export async function userNamed(t: TestApp, token: string, username: string): Promise<LdapUser & { hash: string }> {
  const { users, hash } = await listing(t, token);
  const u = users.find((x) => x.username === username);
  if (!u) throw new Error(`${username} is not listed`);
  return { ...u, hash };
}

let ouSeq = 0;

/** A directory of its own for one test: a new organizational unit holding these users; answers its DN (the base_dn). */
export async function directoryOf(s: Slapd, users: TestUser[], kind: 'openldap' | 'ad' = 'openldap'): Promise<string> {
  const ou = `t${Date.now() % 100_000}x${++ouSeq}`;
  await s.addOu(ou);
  for (const u of users) await (kind === 'ad' ? s.addAdUser({ ...u, ou }) : s.addUser({ ...u, ou }));
  return s.ouDn(ou);
}

/** A group under `parentDn` (groupOfNames, or groupOfUniqueNames with `unique`) holding these DNs; answers its DN. */
export async function addGroup(s: Slapd, parentDn: string, cn: string, members: string[], unique = false): Promise<string> {
  const dn = `cn=${cn},${parentDn}`;
  const client = new Client({ url: `ldap://${s.host}:${s.port}` });
  try {
    await client.bind(s.adminDn, s.adminPassword);
    await client.add(dn, { objectClass: unique ? 'groupOfUniqueNames' : 'groupOfNames', cn, [unique ? 'uniqueMember' : 'member']: members });
  } finally {
    await client.unbind();
  }
  return dn;
}

/** Adds a member to a group made by addGroup. */
export async function addToGroup(s: Slapd, groupDn: string, member: string) {
  const client = new Client({ url: `ldap://${s.host}:${s.port}` });
  try {
    await client.bind(s.adminDn, s.adminPassword);
    await client.modify(groupDn, new Change({ operation: 'add', modification: new Attribute({ type: 'member', values: [member] }) }));
  } finally {
    await client.unbind();
  }
}
