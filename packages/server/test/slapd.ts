import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Attribute, Change, Client } from 'ldapts';
import { until } from './until';

/*
 * A real OpenLDAP server for tests: Debian's slapd in a temporary folder, on free ports of 127.0.0.1,
 * with an mdb database, the core, cosine, inetorgperson and nis schemas (and Microsoft's msuser for
 * Active Directory-like users), an administrator, users and groups loaded before it starts, and
 * optionally TLS (LDAPS and StartTLS) with a test CA made by openssl. Start it once per file in
 * beforeAll; stop() kills it and removes the folder (call it in afterAll, it is safe to call twice).
 */

const run = promisify(execFile);
const SLAPD = '/usr/sbin/slapd';
const SCHEMAS = ['core', 'cosine', 'inetorgperson', 'nis', 'msuser'];

export interface TestUser {
  uid: string;
  /** The organizational unit it lives in (default people for OpenLDAP users, ad for AD users); addOu() makes one. */
  ou?: string;
  password?: string;
  description?: string;
  disabled?: boolean;
  /** An Active Directory user's memberOf values (the DNs of its groups), as AD keeps them on the user. */
  memberOf?: string[];
}

/** A groupOfNames loaded with the directory; its members may be users or other groups (nesting). */
export interface TestGroup {
  dn: string;
  members: string[];
}

export interface SlapdOptions {
  suffix?: string;
  /** OpenLDAP users (inetOrgPerson, posixAccount, shadowAccount) under ou=people. */
  users?: TestUser[];
  /** Active Directory-like users (objectClass user, sAMAccountName, objectGUID, userAccountControl) under ou=ad. */
  adUsers?: TestUser[];
  /** Also serve LDAPS, and StartTLS on the plain port, with a certificate for 127.0.0.1 and localhost. */
  tls?: boolean;
  /** Load the ppolicy overlay (no policy): it records each password change in pwdChangedTime. */
  ppolicy?: boolean;
  /** Groups loaded after the users (their parents must exist: ou=groups does). */
  groups?: TestGroup[];
}

export interface Slapd {
  host: string;
  port: number;
  /** The LDAPS port (with tls). */
  tlsPort: number;
  suffix: string;
  adminDn: string;
  adminPassword: string;
  /** A service account that may read the directory, under the server's limits (the administrator has none). */
  readerDn: string;
  readerPassword: string;
  /** The test CA that signed the server's certificate (with tls), and another that did not. */
  ca: string;
  otherCa: string;
  /** A user's DN (the user must have been loaded or added). */
  userDn(uid: string): string;
  adUserDn(uid: string): string;
  /** DN of an organizational unit under the suffix. */
  ouDn(ou: string): string;
  addOu(ou: string): Promise<void>;
  /** The objectGUID bytes of an AD user as loaded or added. */
  adGuid(uid: string): Buffer;
  addUser(user: TestUser): Promise<void>;
  addAdUser(user: TestUser): Promise<void>;
  /** Changes an OpenLDAP user's description, disabled marker (shadowExpire) or password. */
  modifyUser(uid: string, change: { description?: string | null; disabled?: boolean; password?: string }): Promise<void>;
  /** Sets an AD user's userAccountControl disabled bit. */
  setAdDisabled(uid: string, disabled: boolean): Promise<void>;
  /** Deletes a user of either kind. */
  deleteUser(uid: string): Promise<void>;
  stop(): Promise<void>;
}

/** A password as slapd stores it: {SSHA} (salted SHA-1), so the directory holds no clear text. */
function ssha(password: string): string {
  const salt = randomBytes(8);
  return `{SSHA}${Buffer.concat([createHash('sha1').update(password).update(salt).digest(), salt]).toString('base64')}`;
}

/** An LDIF attribute line; values that are not plain ASCII go base64 (as LDIF requires). */
const line = (name: string, value: string | Buffer) =>
  Buffer.isBuffer(value) || !/^[\x21-\x39\x3b\x3d-\x7e][\x20-\x7e]*$/.test(value) ? `${name}:: ${Buffer.from(value).toString('base64')}` : `${name}: ${value}`;

const entry = (dn: string, attrs: [string, string | Buffer][]) => [line('dn', dn), ...attrs.map(([k, v]) => line(k, v))].join('\n');

let uidNumber = 10_000;

function openLdapAttrs(u: TestUser): [string, string | Buffer][] {
  const n = ++uidNumber;
  return [
    ['objectClass', 'inetOrgPerson'],
    ['objectClass', 'posixAccount'],
    ['objectClass', 'shadowAccount'],
    ['uid', u.uid],
    ['cn', u.uid],
    ['sn', u.uid],
    ['uidNumber', String(n)],
    ['gidNumber', '10000'],
    ['homeDirectory', `/home/${u.uid}`],
    ['userPassword', ssha(u.password ?? 'password1')],
    ...(u.description ? ([['description', u.description]] as [string, string][]) : []),
    // shadowExpire 1: the account expired on 1970-01-02.
    ...(u.disabled ? ([['shadowExpire', '1']] as [string, string][]) : []),
  ];
}

function adAttrs(u: TestUser, guid: Buffer): [string, string | Buffer][] {
  return [
    ['objectClass', 'user'],
    ['objectClass', 'extensibleObject'],
    ['cn', u.uid],
    ['sn', u.uid],
    ['instanceType', '4'],
    ['nTSecurityDescriptor', Buffer.from([1, 0])],
    ['objectCategory', 'cn=Person,cn=Schema,cn=Configuration'],
    ['sAMAccountName', u.uid],
    ['objectGUID', guid],
    ['userAccountControl', u.disabled ? '514' : '512'],
    ['userPassword', ssha(u.password ?? 'password1')],
    ...(u.description ? ([['description', u.description]] as [string, string][]) : []),
    ...(u.memberOf ?? []).map((g) => ['memberOf', g] as [string, string]),
  ];
}

/** A port nobody listens on now (the server takes it right after; a clash makes start() try again). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const answers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

/** A CA, a server certificate it signs (127.0.0.1 and localhost), and an unrelated CA. */
async function makeCertificates(dir: string) {
  const openssl = (...args: string[]) => run('openssl', args, { cwd: dir });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes'];
  await openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=HubLink Test LDAP CA');
  await openssl('req', '-x509', ...ec, '-keyout', 'other.key', '-out', 'other.crt', '-days', '2', '-subj', '/CN=Another CA');
  await openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  await openssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.crt', '-days', '2', '-extfile', 'san.ext');
}

export async function startSlapd(opts: SlapdOptions = {}): Promise<Slapd> {
  if (!fs.existsSync(SLAPD)) throw new Error(`${SLAPD} is missing: install Debian's slapd and ldap-utils (.ci/run does)`);
  const suffix = opts.suffix ?? 'dc=example,dc=com';
  const adminDn = `cn=admin,${suffix}`;
  const adminPassword = `admin-${randomBytes(6).toString('hex')}`;
  const readerDn = `cn=reader,${suffix}`;
  const readerPassword = `reader-${randomBytes(6).toString('hex')}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-slapd-'));
  const guids = new Map<string, Buffer>();
  const dns = new Map<string, string>();
  const ouDn = (ou: string) => `ou=${ou},${suffix}`;
  const openLdapDn = (u: TestUser) => {
    const dn = `uid=${u.uid},${ouDn(u.ou ?? 'people')}`;
    dns.set(u.uid, dn);
    return dn;
  };
  const adDn = (u: TestUser) => {
    const dn = `cn=${u.uid},${ouDn(u.ou ?? 'ad')}`;
    dns.set(u.uid, dn);
    return dn;
  };
  const dnOf = (uid: string) => {
    const dn = dns.get(uid);
    if (!dn) throw new Error(`slapd: no user ${uid}`);
    return dn;
  };
  let child: ChildProcess | undefined;
  let output = '';
  const stop = async () => {
    const c = child;
    child = undefined;
    if (c && c.exitCode === null && c.signalCode === null) {
      const exited = new Promise((resolve) => c.once('exit', resolve));
      c.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };

  try {
    if (opts.tls) await makeCertificates(dir);
    fs.mkdirSync(path.join(dir, 'db'));
    const conf = [
      ...SCHEMAS.map((s) => `include /etc/ldap/schema/${s}.schema`),
      `pidfile ${dir}/slapd.pid`,
      'modulepath /usr/lib/ldap',
      'moduleload back_mdb',
      ...(opts.ppolicy ? ['moduleload ppolicy'] : []),
      'loglevel none',
      ...(opts.tls ? [`TLSCACertificateFile ${dir}/ca.crt`, `TLSCertificateFile ${dir}/server.crt`, `TLSCertificateKeyFile ${dir}/server.key`] : []),
      'database mdb',
      'maxsize 1073741824',
      `suffix "${suffix}"`,
      `rootdn "${adminDn}"`,
      `rootpw ${adminPassword}`,
      `directory ${dir}/db`,
      'index objectClass eq',
      'index uid eq',
      // A page of at most 500 at a time, as many pages as asked: the paged search must page.
      'sizelimit size.soft=500 size.hard=500 size.prtotal=unlimited',
      // Users may read the directory and change nothing; their passwords only serve binds.
      'access to attrs=userPassword by self =xw by anonymous auth by * none',
      'access to * by users read by * none',
      ...(opts.ppolicy ? ['overlay ppolicy'] : []),
    ].join('\n');
    fs.writeFileSync(path.join(dir, 'slapd.conf'), `${conf}\n`);

    const dc = /^dc=([^,]+)/i.exec(suffix)?.[1] ?? 'example';
    const entries = [
      entry(suffix, [['objectClass', 'dcObject'], ['objectClass', 'organization'], ['dc', dc], ['o', dc]]),
      entry(readerDn, [['objectClass', 'organizationalRole'], ['objectClass', 'simpleSecurityObject'], ['cn', 'reader'], ['userPassword', ssha(readerPassword)]]),
      entry(`ou=people,${suffix}`, [['objectClass', 'organizationalUnit'], ['ou', 'people']]),
      entry(`ou=ad,${suffix}`, [['objectClass', 'organizationalUnit'], ['ou', 'ad']]),
      entry(`ou=groups,${suffix}`, [['objectClass', 'organizationalUnit'], ['ou', 'groups']]),
      // Groups are no users: none of them may show up in a listing.
      entry(`cn=staff,ou=groups,${suffix}`, [['objectClass', 'posixGroup'], ['cn', 'staff'], ['gidNumber', '10000'], ...(opts.users ?? []).map((u) => ['memberUid', u.uid] as [string, string])]),
      entry(`cn=admins,ou=groups,${suffix}`, [['objectClass', 'groupOfNames'], ['cn', 'admins'], ['member', adminDn]]),
      ...(opts.users ?? []).map((u) => entry(openLdapDn(u), openLdapAttrs(u))),
      ...(opts.adUsers ?? []).map((u) => {
        const guid = randomBytes(16);
        guids.set(u.uid, guid);
        return entry(adDn(u), adAttrs(u, guid));
      }),
      ...(opts.groups ?? []).map((g) => {
        const cn = /^cn=([^,]+)/i.exec(g.dn)?.[1] ?? 'group';
        return entry(g.dn, [['objectClass', 'groupOfNames'], ['cn', cn], ...g.members.map((m) => ['member', m] as [string, string])]);
      }),
    ];
    fs.writeFileSync(path.join(dir, 'data.ldif'), `${entries.join('\n\n')}\n`);
    // Loaded offline: thousands of entries in a second, with their entryUUIDs.
    await run('/usr/sbin/slapadd', ['-q', '-f', path.join(dir, 'slapd.conf'), '-l', path.join(dir, 'data.ldif')]);

    let port = 0;
    let tlsPort = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      tlsPort = opts.tls ? await freePort() : 0;
      const urls = [`ldap://127.0.0.1:${port}/`, ...(opts.tls ? [`ldaps://127.0.0.1:${tlsPort}/`] : [])].join(' ');
      output = '';
      const c = spawn(SLAPD, ['-f', path.join(dir, 'slapd.conf'), '-h', urls, '-d', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      c.stdout!.on('data', (d: Buffer) => (output += d.toString()));
      c.stderr!.on('data', (d: Buffer) => (output += d.toString()));
      const exited = () => c.exitCode !== null || c.signalCode !== null;
      await until(async () => exited() || ((await answers(port)) && (!opts.tls || (await answers(tlsPort)))), 'slapd to listen');
      if (!exited()) break;
      // Someone took a port between the look and the listen: another pair.
      if (attempt >= 3) throw new Error(`slapd did not start: ${output}`);
    }

    const admin = async <T>(work: (client: Client) => Promise<T>) => {
      const client = new Client({ url: `ldap://127.0.0.1:${port}` });
      try {
        await client.bind(adminDn, adminPassword);
        return await work(client);
      } finally {
        await client.unbind();
      }
    };
    const asRecord = (attrs: [string, string | Buffer][]) => {
      const out: Record<string, (string | Buffer)[]> = {};
      for (const [k, v] of attrs) (out[k] ??= []).push(v);
      return Object.entries(out).map(([type, values]) => new Attribute({ type, values: values as string[] | Buffer[] }));
    };
    const read = (name: string) => (opts.tls ? fs.readFileSync(path.join(dir, name), 'utf8') : '');
    return {
      host: '127.0.0.1',
      port,
      tlsPort,
      suffix,
      adminDn,
      adminPassword,
      readerDn,
      readerPassword,
      ca: read('ca.crt'),
      otherCa: read('other.crt'),
      userDn: dnOf,
      adUserDn: dnOf,
      ouDn,
      addOu: (ou) => admin((c) => c.add(ouDn(ou), asRecord([['objectClass', 'organizationalUnit'], ['ou', ou]]))),
      adGuid: (uid) => guids.get(uid)!,
      addUser: (u) => admin((c) => c.add(openLdapDn(u), asRecord(openLdapAttrs(u)))),
      addAdUser: (u) => {
        const guid = Buffer.from(randomUUID().replaceAll('-', ''), 'hex');
        guids.set(u.uid, guid);
        return admin((c) => c.add(adDn(u), asRecord(adAttrs(u, guid))));
      },
      modifyUser: (uid, change) =>
        admin(async (c) => {
          const changes: Change[] = [];
          if (change.description !== undefined) {
            changes.push(
              change.description === null
                ? new Change({ operation: 'replace', modification: new Attribute({ type: 'description', values: [] }) })
                : new Change({ operation: 'replace', modification: new Attribute({ type: 'description', values: [change.description] }) }),
            );
          }
          if (change.disabled !== undefined) {
            changes.push(new Change({ operation: 'replace', modification: new Attribute({ type: 'shadowExpire', values: change.disabled ? ['1'] : [] }) }));
          }
          if (change.password !== undefined) {
            changes.push(new Change({ operation: 'replace', modification: new Attribute({ type: 'userPassword', values: [ssha(change.password)] }) }));
          }
          await c.modify(dnOf(uid), changes);
        }),
      setAdDisabled: (uid, disabled) =>
        admin((c) => c.modify(dnOf(uid), new Change({ operation: 'replace', modification: new Attribute({ type: 'userAccountControl', values: [disabled ? '514' : '512'] }) }))),
      deleteUser: (uid) => admin((c) => c.del(dnOf(uid))),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
