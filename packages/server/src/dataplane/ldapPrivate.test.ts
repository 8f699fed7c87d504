import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLdap, fmt, importAllLdapUsers, ldapSyncStatus, M, restartLdapSync, saveLdap, uploadLdapCa } from '@hublink/contract';
import { startAgent, type AgentProcess } from '../../test/agentProcess';
import { createTestApp, newAccount, type TestApp } from '../../test/helpers';
import { lanHost, type LanHost } from '../../test/lan';
import { uploadFile } from '../../test/multipart';
import { NetLab, type NsProcess } from '../../test/netns';
import { until } from '../../test/until';
import { requireLab, Wan, type Uplink } from '../../test/wan';
import { RELAY_CHANNELS, relayDown, type RelayDown } from '../domain/directoryRelay';
import { directorySignIn } from '../domain/ldapSignIn';
import { gatewayOf } from '../gateway';
import { configOf, listing, verifiedDomain } from '../modules/ldap/fixtures';
import { configOf as ldapConfigOf, hashOf } from '../modules/ldap/state';
import { addMember } from '../modules/router/fixtures';

/*
 * LDAP private mode on the wire (issue 33): a directory (a real slapd) in a branch LAN, in a namespace
 * of its own behind a router's namespace, reachable from the router and not from the server's host.
 * The router runs the real `hublink agent`, signed in to a server of the test's through the lab's
 * internet. The server checks the configuration, saves it, lists the directory's users and checks a
 * member's directory password, each through the router's agent; plain LDAP and LDAPS (with the
 * certificate checked against the configured address, end to end). The agent connects to nothing but
 * the target the gateway named; an offline router is said so, at the check and in the sync status.
 */

const run = promisify(execFile);
const SECRET = 'devsecret1';
const UP_MS = 90_000;
const LAN = { router: '192.0.2.1/24', directory: '192.0.2.10/24' };
const DIRECTORY = '192.0.2.10';
const SUFFIX = 'dc=branch,dc=example';
const ADMIN = { dn: `cn=admin,${SUFFIX}`, password: 'branch-admin-1' };
const USERS = [
  { uid: 'zhangsan', password: 'Directory-pass1' },
  { uid: 'lisi', password: 'Directory-pass2' },
];

/** slapd in `ns` on 192.0.2.10 (389, and 636 with a certificate for that address signed by the returned CA). */
async function branchDirectory(lab: NetLab, ns: string): Promise<{ proc: NsProcess; ca: string }> {
  const dir = fs.mkdtempSync(path.join(lab.tempDir(), 'slapd-'));
  const f = (name: string) => path.join(dir, name);
  const ssl = (args: string[]) => run('openssl', args, { cwd: dir });
  await ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=Branch Test CA']);
  await ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', `/CN=${DIRECTORY}`]);
  fs.writeFileSync(f('san.ext'), `subjectAltName=IP:${DIRECTORY}\n`);
  await ssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext']);
  fs.chmodSync(f('server.key'), 0o644);
  fs.mkdirSync(f('db'));
  const conf = [
    ...['core', 'cosine', 'inetorgperson', 'nis'].map((s) => `include /etc/ldap/schema/${s}.schema`),
    `pidfile ${f('slapd.pid')}`,
    'modulepath /usr/lib/ldap',
    'moduleload back_mdb',
    'loglevel none',
    `TLSCACertificateFile ${f('ca.crt')}`,
    `TLSCertificateFile ${f('server.crt')}`,
    `TLSCertificateKeyFile ${f('server.key')}`,
    'database mdb',
    'maxsize 104857600',
    `suffix "${SUFFIX}"`,
    `rootdn "${ADMIN.dn}"`,
    `rootpw ${ADMIN.password}`,
    `directory ${f('db')}`,
    'access to attrs=userPassword by self =xw by anonymous auth by * none',
    'access to * by users read by * none',
  ].join('\n');
  fs.writeFileSync(f('slapd.conf'), `${conf}\n`);
  const entries = [
    [`dn: ${SUFFIX}`, 'objectClass: dcObject', 'objectClass: organization', 'dc: branch', 'o: branch'],
    [`dn: ou=people,${SUFFIX}`, 'objectClass: organizationalUnit', 'ou: people'],
    ...USERS.map((u, i) => [
      `dn: uid=${u.uid},ou=people,${SUFFIX}`,
      'objectClass: inetOrgPerson',
      'objectClass: posixAccount',
      'objectClass: shadowAccount',
      `uid: ${u.uid}`,
      `cn: ${u.uid}`,
      `sn: ${u.uid}`,
      `uidNumber: ${2000 + i}`,
      'gidNumber: 10000',
      `homeDirectory: /home/${u.uid}`,
      `userPassword: ${u.password}`,
    ]),
  ];
  fs.writeFileSync(f('data.ldif'), `${entries.map((e) => e.join('\n')).join('\n\n')}\n`);
  await run('/usr/sbin/slapadd', ['-q', '-f', f('slapd.conf'), '-l', f('data.ldif')]);
  const proc = lab.start(ns, 'slapd', '/usr/sbin/slapd', ['-f', f('slapd.conf'), '-h', `ldap://${DIRECTORY}:389/ ldaps://${DIRECTORY}:636/`, '-d', '0'], dir);
  await until(async () => (await lab.exec(ns, 'ss', ['-ltn'])).includes(`${DIRECTORY}:636`), 'slapd to listen in the branch', 30_000);
  return { proc, ca: fs.readFileSync(f('ca.crt'), 'utf8') };
}

/** Whether this process (the server's host) can open a TCP connection to host:port within `ms`. */
function reachable(host: string, port: number, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.connect({ host, port });
    const done = (ok: boolean) => {
      s.destroy();
      resolve(ok);
    };
    s.once('connect', () => done(true));
    s.once('error', () => done(false));
    s.setTimeout(ms, () => done(false));
  });
}

describe('LDAP private mode: a directory in a branch, through the router', () => {
  const lab = new NetLab('hlldap');
  let t: TestApp | undefined;
  let main: Awaited<ReturnType<typeof newAccount>>;
  let wan: Wan;
  let up: Uplink;
  let branch: LanHost;
  let slapd: { proc: NsProcess; ca: string } | undefined;
  let agent: AgentProcess | undefined;
  let router = '';
  let routerId = 0;

  const online = async () => (await t!.db.selectFrom('device_session').select('id').where('member_id', '=', routerId).executeTakeFirst()) !== undefined;
  const privateBody = (over: Record<string, unknown> = {}) => ({
    ...configOf({ host: DIRECTORY, port: 389, suffix: SUFFIX, adminDn: ADMIN.dn, adminPassword: ADMIN.password } as never),
    mode: 'private',
    router_name: router,
    ...over,
  });
  const call = (endpoint: typeof checkLdap | typeof saveLdap, body: Record<string, unknown>) => t!.call(endpoint, { token: main.token, body } as never);

  beforeAll(async () => {
    await requireLab();
    await lab.removeLeftovers();
    t = await createTestApp('sqlite', { config: { apiRateLimitPerMinute: 1_000_000, allowPrivateTargets: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    wan = await Wan.create(lab);
    await wan.gateway((t.app.server.address() as AddressInfo).port);
    up = await wan.device('br');
    branch = await lanHost(lab, up.ns, { name: 'brdir', memberAddress: LAN.router, hostAddress: LAN.directory });
    slapd = await branchDirectory(lab, branch.ns);
    main = await newAccount(t);
    await verifiedDomain(t, main.account.id);
    router = await addMember(t, main.token, { router_type: 1, password: SECRET });
    routerId = (await t.db.selectFrom('member').select('id').where('router_name', '=', router).executeTakeFirstOrThrow()).id;
    agent = startAgent(lab, up.ns, { name: router, secret: SECRET, entry: 'agent', args: ['--simulate'] });
    await until(online, 'the router signed in', UP_MS);
  }, 180_000);

  afterAll(async () => {
    await agent?.stop();
    await slapd?.proc.stop();
    await t?.close();
    await lab.close();
  });

  it('the directory answers in the branch and not from the server’s host; public mode refuses its private address', async () => {
    expect(await lab.exec(up.ns, 'bash', ['-c', `exec 3<>/dev/tcp/${DIRECTORY}/389 && echo open`])).toContain('open');
    expect(await reachable(DIRECTORY, 389, 1_500)).toBe(false);
    const res = await call(checkLdap, privateBody({ mode: 'public', router_name: '' }));
    expect([res.code, res.msg]).toEqual([422, M.ldapHostPrivate]);
  });

  it('checks, saves, lists the users and checks a directory password through the router', async () => {
    const checked = await call(checkLdap, privateBody());
    expect([checked.code, checked.msg]).toEqual([200, M.ldapChecked]);
    const saved = await call(saveLdap, privateBody());
    expect([saved.code, saved.msg]).toEqual([200, M.ldapSaved]);
    // The save's first read of the directory, through the router: the listing's rows.
    const rows = await t!.db.selectFrom('ldap_user').select(['username', 'dn']).where('tenant_id', '=', main.account.id).orderBy('username').execute();
    expect(rows).toEqual(USERS.map((u) => ({ username: u.uid, dn: `uid=${u.uid},ou=people,${SUFFIX}` })).sort((a, b) => a.username.localeCompare(b.username)));
    const listed = await listing(t!, main.token);
    expect(listed.users.map((u) => u.username).sort()).toEqual(USERS.map((u) => u.uid).sort());
    const hash = hashOf((await ldapConfigOf(t!.db, main.account.id))!);
    const status = await t!.call(ldapSyncStatus, { token: main.token });
    expect(status.data).toMatchObject({ count: USERS.length, service: { status: 1, message: '' } });

    const imported = await t!.call(importAllLdapUsers, { token: main.token, body: { hash } });
    expect([imported.code, imported.msg]).toEqual([200, expect.any(String)]);
    const member = await t!.db.selectFrom('member').select(['id', 'tenant_id']).where('tenant_id', '=', main.account.id).where('router_name', '=', USERS[0]!.uid).executeTakeFirstOrThrow();
    expect(await directorySignIn(t!.ctx, member, USERS[0]!.password)).toBe('ok');
    expect(await directorySignIn(t!.ctx, member, 'not-the-password')).toBe('wrong');
  });

  it('LDAPS through the router: the certificate is checked against the configured address, end to end', async () => {
    const upload = async (filename: string, pem: string) => {
      const res = await uploadFile<{ ca_id: number; file_name: string }>(t!, uploadLdapCa, main.token, { filename, body: Buffer.from(pem) });
      if (res.code !== 200) throw new Error(`upload: ${res.msg}`);
      return res.data!.ca_id;
    };
    const res = await call(checkLdap, privateBody({ port: 636, use_ssl: 1, ca_id: await upload('branch-ca.pem', slapd!.ca) }));
    expect([res.code, res.msg]).toEqual([200, M.ldapChecked]);
    // Another CA: the router relays bytes only, so the server's own TLS check refuses.
    const otherId = await upload('other.pem', otherCa());
    const refused = await call(checkLdap, privateBody({ port: 636, use_ssl: 1, ca_id: otherId }));
    expect([refused.code, refused.msg]).toEqual([422, fmt(M.ldapErrTls, { reason: M.ldapErrTlsUntrusted })]);
  });

  it('the agent connects only to the target the gateway named', async () => {
    const session = gatewayOf(t!.ctx).sessionOf(routerId);
    expect(session).toBeDefined();
    const answers: RelayDown[] = [];
    const id = `test-${Date.now()}`;
    // The gateway's session knows the id (as an open request makes it), so the agent's answer is passed on.
    const unsubscribe = await t!.ctx.pubsub.subscribe(RELAY_CHANNELS.down(id), (m) => answers.push(relayDown.parse(m)));
    await t!.ctx.pubsub.publish(RELAY_CHANNELS.open, { id, tenant_id: main.account.id, member_id: routerId, host: DIRECTORY, port: 389 });
    await until(() => answers.some((a) => a.kind === 'opened'), 'the named connection opened', 15_000);
    expect(answers[0]).toEqual({ kind: 'opened', ok: true, error: '' });
    // Another port of the same host, and another host, asked straight of the agent: refused, nothing opened.
    for (const [host, port, n] of [[DIRECTORY, 22, 1], ['192.0.2.1', 389, 2]] as const) {
      session!.send({ type: 'directory_open', id: `${id}-${n}`, host, port });
    }
    await until(() => agent!.lines.filter((l) => l.text.includes('directory relay: refused')).length >= 2, 'the agent refused both', 15_000);
    expect(agent!.lines.filter((l) => l.text.includes('directory relay: refused')).map((l) => l.text.replace(/^.*refused /, ''))).toEqual([
      `${DIRECTORY}:22 (not_named)`,
      `192.0.2.1:389 (not_named)`,
    ]);
    await t!.ctx.pubsub.publish(RELAY_CHANNELS.up(id), { kind: 'close' });
    await unsubscribe();
  });

  it('says the router is offline, at the check and in the sync status; and a failed connection through it', async () => {
    const refused = await call(checkLdap, privateBody({ port: 390 }));
    expect([refused.code, refused.msg]).toEqual([422, fmt(M.ldapErrViaRouter, { name: router, message: M.ldapErrRefused })]);
    await agent!.stop();
    await until(async () => !(await online()), 'the router offline', 60_000);
    const res = await call(checkLdap, privateBody());
    expect([res.code, res.msg]).toEqual([422, fmt(M.ldapErrRouterOffline, { name: router })]);
    const sync = await t!.call(restartLdapSync, { token: main.token, body: {} });
    expect([sync.code, sync.msg]).toEqual([422, fmt(M.ldapErrRouterOffline, { name: router })]);
    const status = await t!.call(ldapSyncStatus, { token: main.token });
    expect(status.data).toMatchObject({ service: { message: fmt(M.ldapErrRouterOffline, { name: router }) } });
  });
});

/** A CA that signed nothing here. */
function otherCa(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'otherca-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'k', '-out', 'c', '-days', '2', '-subj', '/CN=Other CA'], { cwd: dir, stdio: 'ignore' });
    return fs.readFileSync(path.join(dir, 'c'), 'utf8');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
