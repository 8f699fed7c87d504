/**
 * Directory sync benchmark (issue 33): a tenant syncs a directory shaped like Active Directory, in slapd
 * (BENCH_DIRECTORY_USERS users, 5,000 by default: objectClass user, sAMAccountName, objectGUID,
 * userAccountControl, memberOf, in departments nested under one VPN group), through the API as the
 * console does. Timed, each on its own:
 *  1. the first (full) sync that /ldap/save runs, type Active Directory, the whole base;
 *  2. /ldap/import_all: every user becomes a member;
 *  3. an incremental /ldap/sync with nothing changed, then one after changes across the directory
 *     (1 % of the users edited, ½ % disabled, ½ % added, ¼ % removed);
 *  4. the same directory selected by the nested group (the walk: slapd has no AD in-chain rule, so
 *     this runs as a generic directory whose name attribute is sAMAccountName), full sync;
 *  5. private mode: the full sync again through a router (the reference agent in this process),
 *     then an incremental sync through it.
 *
 *   npm run bench:directory              SQLite in a temporary data directory
 *   BENCH_DATABASE_URL=postgres://…      the same on PostgreSQL (a fresh schema, dropped afterwards)
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DeviceClient } from '../packages/agent/src/index';
import { buildApp } from '../packages/server/src/app';
import { loadConfig } from '../packages/server/src/config';
import { connect } from '../packages/server/src/db/connect';
import { migrateToLatest } from '../packages/server/src/db/migrate';
import { benchTenant } from './seed';
import { startRouterAgent } from '../packages/server/test/routerAgent';
import { startSlapd, type TestGroup, type TestUser } from '../packages/server/test/slapd';

const USERS = Number(process.env.BENCH_DIRECTORY_USERS ?? 5000);
const DEPARTMENTS = 10;
const SUFFIX = 'dc=example,dc=com';
const ROUTER = 'branch_gw';
const ROUTER_SECRET = 'router-secret-1';

const uidOf = (i: number) => `emp${String(i).padStart(5, '0')}`;
const adDn = (uid: string) => `cn=${uid},ou=ad,${SUFFIX}`;
const groupDn = (cn: string) => `cn=${cn},ou=groups,${SUFFIX}`;
const VPN_GROUP = groupDn('VPN Users');

interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data?: T;
  count?: number;
}

async function main() {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-bench-directory-'));
  const schema = `bench_${randomBytes(4).toString('hex')}`;

  // The directory: users in departments, departments (and one nested a level deeper) under the VPN group.
  const department = (i: number) => `dept-${i % DEPARTMENTS}`;
  const users: TestUser[] = Array.from({ length: USERS }, (_, i) => ({
    uid: uidOf(i),
    description: `研发中心 ${department(i)}`,
    memberOf: [groupDn(department(i)), VPN_GROUP],
  }));
  const groups: TestGroup[] = [
    ...Array.from({ length: DEPARTMENTS }, (_, d) => ({
      dn: groupDn(`dept-${d}`),
      members: [...users.filter((_, i) => i % DEPARTMENTS === d).map((u) => adDn(u.uid)), ...(d === 0 ? [groupDn('dept-0-lab')] : [])],
    })),
    { dn: groupDn('dept-0-lab'), members: [adDn(uidOf(0)), adDn(uidOf(DEPARTMENTS))] },
    { dn: VPN_GROUP, members: Array.from({ length: DEPARTMENTS }, (_, d) => groupDn(`dept-${d}`)) },
  ];
  let t0 = Date.now();
  const slapd = await startSlapd({ suffix: SUFFIX, adUsers: users, groups });
  console.log(`slapd with ${USERS} AD-shaped users in ${DEPARTMENTS} nested groups loaded and listening in ${((Date.now() - t0) / 1000).toFixed(1)} s`);

  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.createSchema(schema).execute();
    await admin.close();
  }
  const handle = connect({ databaseUrl: pgUrl, dataDir: dir, ...(pgUrl ? { schema } : {}) });
  await migrateToLatest(handle);
  // The directory is on 127.0.0.1: public mode may reach it only with private targets allowed.
  const config = { ...loadConfig({ HUBLINK_DATA_DIR: dir, HUBLINK_API_RATE_LIMIT: '100000000', HUBLINK_ALLOW_PRIVATE_TARGETS: '1' }), prettyLogs: false, runJobs: true };
  const app = await buildApp(config, { db: handle, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;

  const now = Date.now();
  const tenant = { id: await benchTenant(handle.db, { username: 'dirbench', sign: 'dirbench', domain: 'dirbench', members: 100_000 }) };
  await handle.db.insertInto('ldap_domain').values({ tenant_id: tenant.id, domain: 'example.com', token: 'bench', verify_time: now, create_time: now }).execute();
  const { token } = await app.ctx.tokens.issue(tenant.id, null);

  const call = async <T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<Envelope<T>> => {
    const res = await fetch(`${base}/api/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const env = (await res.json()) as Envelope<T>;
    if (env.code !== 200) throw new Error(`${url}: ${env.code} ${env.msg}`);
    return env;
  };
  const timed = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    const out = await work();
    console.log(`  ${label}: ${((Date.now() - start) / 1000).toFixed(2)} s`);
    return out;
  };
  const hash = async () => (await call<{ hash: string }>('GET', '/ldap/user?page=1&limit=1')).data!.hash;
  const listed = async () => (await call('GET', '/ldap/user?page=1&limit=1')).count ?? 0;
  const members = async () => Number((await handle.db.selectFrom('member').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenant.id).executeTakeFirstOrThrow()).n);
  const form = (over: Record<string, unknown> = {}) => ({
    mode: 'public',
    domain: 'example.com',
    host: slapd.host,
    port: String(slapd.port),
    base_dn: `ou=ad,${SUFFIX}`,
    use_ssl: 0,
    type: 2,
    username: slapd.readerDn,
    password: slapd.readerPassword,
    sync_mode: 1,
    network_number: '',
    ...over,
  });

  console.log(`directory sync on ${handle.dialect}, ${os.availableParallelism()} cores, Node ${process.version}, ${USERS} users`);
  console.log('Active Directory type, the whole base:');
  await timed('first (full) sync, /ldap/save', () => call('POST', '/ldap/save', form()));
  console.log(`    ${await listed()} users listed`);
  const imported = await timed('import every user, /ldap/import_all', async () => (await call<{ success: number; fail: number }>('POST', '/ldap/import_all', { hash: await hash() })).data!);
  console.log(`    ${imported.success} imported, ${imported.fail} refused; ${await members()} members`);
  await timed('incremental sync, nothing changed', async () => call('POST', '/ldap/sync', { hash: await hash() }));

  const edited = Math.round(USERS / 100);
  const disabled = Math.round(USERS / 200);
  const added = Math.round(USERS / 200);
  const removed = Math.round(USERS / 400);
  t0 = Date.now();
  for (let i = 0; i < edited; i++) await slapd.modifyUser(uidOf(i * 7), { description: `调岗 ${i}` });
  for (let i = 0; i < disabled; i++) await slapd.setAdDisabled(uidOf(i * 11 + 1), true);
  for (let i = 0; i < added; i++) await slapd.addAdUser({ uid: `new${String(i).padStart(4, '0')}`, description: '新员工', memberOf: [VPN_GROUP] });
  for (let i = 0; i < removed; i++) await slapd.deleteUser(uidOf(USERS - 1 - i * 3));
  console.log(`    directory changed in ${((Date.now() - t0) / 1000).toFixed(1)} s: ${edited} edited, ${disabled} disabled, ${added} added, ${removed} removed`);
  await timed(`incremental sync after ${edited + disabled + added + removed} changes`, async () => call('POST', '/ldap/sync', { hash: await hash() }));
  const disabledMembers = Number(
    (await handle.db.selectFrom('member').select((eb) => eb.fn.countAll().as('n')).where('tenant_id', '=', tenant.id).where('status', '=', 0).executeTakeFirstOrThrow()).n,
  );
  console.log(`    ${await listed()} users listed, ${await members()} members, ${disabledMembers} of them disabled`);

  console.log('The nested VPN group, walked (a generic directory whose name attribute is sAMAccountName):');
  await timed('full sync of the group’s users, /ldap/save', () => call('POST', '/ldap/save', form({ type: 1, name_attr: 'sAMAccountName', user_group: VPN_GROUP, password: slapd.readerPassword })));
  // Another type reads another stable id (entryUUID, not objectGUID): to the sync these are other users.
  console.log(`    ${await listed()} users listed, ${await members()} members`);

  console.log(`Private mode, through the router ${ROUTER} (the reference agent in this process):`);
  await call('POST', '/router/add', { router_type: 1, username: ROUTER, password: ROUTER_SECRET, note: '' });
  const agent: DeviceClient = startRouterAgent(base, ROUTER, ROUTER_SECRET);
  for (let i = 0; ; i++) {
    const online = await handle.db.selectFrom('device_session').innerJoin('member', 'member.id', 'device_session.member_id').select('device_session.id').where('member.router_name', '=', ROUTER).executeTakeFirst();
    if (online) break;
    if (i > 600) throw new Error('the router did not come online');
    await new Promise((r) => setTimeout(r, 100));
  }
  await timed('full sync through the router, /ldap/save', () => call('POST', '/ldap/save', form({ mode: 'private', router_name: ROUTER })));
  console.log(`    ${await listed()} users listed, ${await members()} members`);
  await timed('incremental sync through the router, nothing changed', async () => call('POST', '/ldap/sync', { hash: await hash() }));

  await agent.stop();
  await app.close();
  await slapd.stop();
  if (pgUrl) {
    const admin = connect({ databaseUrl: pgUrl, dataDir: dir });
    await admin.db.schema.dropSchema(schema).cascade().execute();
    await admin.db.schema.dropSchema(`${schema}_jobs`).ifExists().cascade().execute();
    await admin.close();
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
