import net from 'node:net';
import { fmt, M } from '@hublink/contract';
import { Attribute, Change, Client, InvalidCredentialsError, NoSuchObjectError, ProtocolError } from 'ldapts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSlapd, type Slapd } from '../../test/slapd';
import { directoryError, withDirectory, type DirectoryError, type DirectoryServer } from './ldap';
import { adGroupFilter, selectedUsers, selectionFilter, type DirectoryConfig } from './ldapSelection';
import { directoryKindOf, directoryReader, guidText, type DirectoryUser } from './ldapUsers';

const OPEN = { allowPrivateTargets: true, timeoutMs: 10_000, wholeSession: true };

/** The failure of a session that binds as `dn` and reads `base`, or 'ok'. */
async function outcome(server: DirectoryServer, dn: string, password: string, base: string, limits = OPEN): Promise<string> {
  try {
    await withDirectory(limits, server, async (d) => {
      await d.bind(dn, password);
      await d.search(base, { scope: 'base', filter: '(objectClass=*)', attributes: ['1.1'] });
    });
    return 'ok';
  } catch (e) {
    return `${(e as DirectoryError).kind}: ${(e as Error).message}`;
  }
}

async function usersOf(s: Slapd, type: number, pageSize: number, server: DirectoryServer): Promise<{ users: (DirectoryUser | null)[]; pages: number[] }> {
  const kind = directoryKindOf(type);
  const users: (DirectoryUser | null)[] = [];
  const pages: number[] = [];
  await withDirectory(OPEN, server, async (d) => {
    await d.bind(s.adminDn, s.adminPassword);
    for await (const page of d.pages(s.suffix, { filter: kind.filter, attributes: kind.attributes, buffers: kind.buffers, pageSize })) {
      pages.push(page.length);
      users.push(...page.map((e) => kind.read(e)));
    }
  });
  return { users, pages };
}

describe('the LDAP client against slapd (core/ldap.ts)', () => {
  let s: Slapd;
  let plainOnly: Slapd;
  const plain = () => ({ host: s.host, port: s.port, security: 'plain' as const });

  beforeAll(async () => {
    s = await startSlapd({
      tls: true,
      users: [
        { uid: 'alice', description: '研发部', password: 'alicepass' },
        { uid: 'bob', disabled: true },
        { uid: 'carl' },
      ],
      adUsers: [{ uid: 'dora', description: 'Sales' }, { uid: 'eve', disabled: true }],
    });
    plainOnly = await startSlapd({ users: [{ uid: 'zed' }] });
  });
  afterAll(async () => {
    await s?.stop();
    await plainOnly?.stop();
  });

  it('binds and reads the base over LDAP, LDAPS with the CA and StartTLS with the CA', async () => {
    expect(await outcome(plain(), s.adminDn, s.adminPassword, s.suffix)).toBe('ok');
    expect(await outcome({ host: s.host, port: s.tlsPort, security: 'ldaps', ca: s.ca }, s.adminDn, s.adminPassword, s.suffix)).toBe('ok');
    expect(await outcome({ host: 'localhost', port: s.tlsPort, security: 'ldaps', ca: s.ca }, s.adminDn, s.adminPassword, s.suffix)).toBe('ok');
    expect(await outcome({ host: s.host, port: s.port, security: 'starttls', ca: s.ca }, s.adminDn, s.adminPassword, s.suffix)).toBe('ok');
    // A user binds with its own DN and password.
    expect(await outcome(plain(), s.userDn('alice'), 'alicepass', s.suffix)).toBe('ok');
  });

  it('says what went wrong in words a console user can act on', async () => {
    const untrusted = `tls: ${fmt(M.ldapErrTls, { reason: M.ldapErrTlsUntrusted })}`;
    const cases: [string, Promise<string>, string][] = [
      ['wrong password', outcome(plain(), s.adminDn, 'wrong', s.suffix), `credentials: ${M.ldapErrCredentials}`],
      ['unknown DN', outcome(plain(), `cn=nobody,${s.suffix}`, 'x', s.suffix), `credentials: ${M.ldapErrCredentials}`],
      ['no such base', outcome(plain(), s.adminDn, s.adminPassword, `ou=nowhere,${s.suffix}`), `no_base: ${M.ldapErrNoBase}`],
      ['another CA', outcome({ host: s.host, port: s.tlsPort, security: 'ldaps', ca: s.otherCa }, s.adminDn, s.adminPassword, s.suffix), untrusted],
      ['no CA at all', outcome({ host: s.host, port: s.tlsPort, security: 'ldaps' }, s.adminDn, s.adminPassword, s.suffix), untrusted],
      ['StartTLS, another CA', outcome({ host: s.host, port: s.port, security: 'starttls', ca: s.otherCa }, s.adminDn, s.adminPassword, s.suffix), untrusted],
      ['StartTLS without TLS on the server', outcome({ host: plainOnly.host, port: plainOnly.port, security: 'starttls', ca: s.ca }, plainOnly.adminDn, plainOnly.adminPassword, plainOnly.suffix), `starttls: ${M.ldapErrStartTls}`],
      ['LDAPS on the plain port', outcome({ host: s.host, port: s.port, security: 'ldaps', ca: s.ca }, s.adminDn, s.adminPassword, s.suffix), `tls: ${fmt(M.ldapErrTls, { reason: fmt(M.ldapErrTlsOther, { code: 'ECONNRESET' }) })}`],
      ['plain LDAP on the LDAPS port', outcome({ host: s.host, port: s.tlsPort, security: 'plain' }, s.adminDn, s.adminPassword, s.suffix), `closed: ${M.ldapErrClosed}`],
      ['nothing listening', outcome({ host: '127.0.0.1', port: 1, security: 'plain' }, s.adminDn, s.adminPassword, s.suffix), `refused: ${M.ldapErrRefused}`],
      ['a name that resolves to nothing', outcome({ host: 'no-such-host.invalid', port: 389, security: 'plain' }, s.adminDn, s.adminPassword, s.suffix), `dns: ${M.ldapErrDns}`],
      ['a private address when those are not allowed', outcome(plain(), s.adminDn, s.adminPassword, s.suffix, { ...OPEN, allowPrivateTargets: false }), `private: ${M.ldapErrPrivate}`],
      ['a name of a private address when those are not allowed', outcome({ host: 'localhost', port: s.port, security: 'plain' }, s.adminDn, s.adminPassword, s.suffix, { ...OPEN, allowPrivateTargets: false }), `private: ${M.ldapErrPrivate}`],
    ];
    for (const [name, result, expected] of cases) expect({ name, result: await result }).toEqual({ name, result: expected });
  });

  it('gives up on a server that accepts and never answers, within the limit', async () => {
    const silent = net.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    try {
      const started = Date.now();
      expect(await outcome({ host: '127.0.0.1', port, security: 'plain' }, s.adminDn, 'x', s.suffix, { ...OPEN, timeoutMs: 300 })).toBe(`timeout: ${M.ldapErrTimeout}`);
      // Each request and the whole session are bounded; the answer comes near the limit, not after minutes.
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(await outcome({ host: '127.0.0.1', port, security: 'ldaps', ca: s.ca }, s.adminDn, 'x', s.suffix, { ...OPEN, timeoutMs: 300 })).toBe(`timeout: ${M.ldapErrTimeout}`);
    } finally {
      silent.close();
    }
  });

  it('closes the connection to a server whose answer passes the bound, instead of keeping it all', async () => {
    // A BER sequence announcing about 2 GB, then bytes without end.
    expect(await floodOutcome(Buffer.from([0x30, 0x84, 0x7f, 0xff, 0xff, 0xff]), Buffer.alloc(1024 * 1024))).toBe(`too_large: ${M.ldapErrTooLarge}`);
  });

  it('closes the connection once many answers, each within the bound, pass it together', async () => {
    // Search entries of 64 KB each for the bind's message id, without end: the client would keep them all.
    const ber = (tag: number, content: Buffer) =>
      Buffer.concat([Buffer.from([tag, 0x83, content.length >> 16, (content.length >> 8) & 0xff, content.length & 0xff]), content]);
    const entry = ber(0x30, Buffer.concat([Buffer.from([0x02, 0x01, 0x01]), ber(0x64, Buffer.concat([ber(0x04, Buffer.alloc(64 * 1024, 'a')), Buffer.from([0x30, 0x00])]))]));
    expect(await floodOutcome(Buffer.alloc(0), entry)).toBe(`too_large: ${M.ldapErrTooLarge}`);
  });

  /** The outcome of a bind against a server that answers with `first`, then `chunk` again and again until the client hangs up. */
  async function floodOutcome(first: Buffer, chunk: Buffer): Promise<string> {
    const flood = net.createServer((socket) => {
      socket.once('data', () => {
        socket.write(first);
        const more = () => {
          while (!socket.destroyed && socket.write(chunk));
          if (!socket.destroyed) socket.once('drain', more);
        };
        more();
      });
      socket.on('error', () => undefined);
    });
    await new Promise<void>((resolve) => flood.listen(0, '127.0.0.1', resolve));
    try {
      const port = (flood.address() as net.AddressInfo).port;
      return await outcome({ host: '127.0.0.1', port, security: 'plain' }, s.adminDn, 'x', s.suffix);
    } finally {
      flood.close();
    }
  }

  it('reads OpenLDAP users by pages: uid, entryUUID, description, shadowExpire as the disabled marker; groups are left out', async () => {
    const { users, pages } = await usersOf(s, 1, 2, plain());
    expect(pages).toEqual([2, 1]);
    expect(users).toEqual([
      { dn: s.userDn('alice'), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), username: 'alice', member_name: 'alice', description: '研发部', phone: '', email: '', disabled: false },
      { dn: s.userDn('bob'), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), username: 'bob', member_name: 'bob', description: '', phone: '', email: '', disabled: true },
      { dn: s.userDn('carl'), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), username: 'carl', member_name: 'carl', description: '', phone: '', email: '', disabled: false },
    ]);
  });

  it('reads Active Directory users: sAMAccountName, objectGUID as AD writes it, userAccountControl bit 2', async () => {
    const { users } = await usersOf(s, 2, 10, { host: s.host, port: s.tlsPort, security: 'ldaps', ca: s.ca });
    expect(users).toEqual([
      { dn: s.adUserDn('dora'), uuid: guidText(s.adGuid('dora')), username: 'dora', member_name: 'dora', description: 'Sales', phone: '', email: '', disabled: false },
      { dn: s.adUserDn('eve'), uuid: guidText(s.adGuid('eve')), username: 'eve', member_name: 'eve', description: '', phone: '', email: '', disabled: true },
    ]);
    expect(guidText(Buffer.from('00112233445566778899aabbccddeeff', 'hex'))).toBe('33221100-5544-7766-8899-aabbccddeeff');
  });

  it('maps result codes and socket errors it cannot provoke here', () => {
    const tlsOf = (code: string) => directoryError(Object.assign(new Error('x'), { code }), 'tls').message;
    expect(tlsOf('ERR_TLS_CERT_ALTNAME_INVALID')).toBe(fmt(M.ldapErrTls, { reason: M.ldapErrTlsHost }));
    expect(tlsOf('CERT_HAS_EXPIRED')).toBe(fmt(M.ldapErrTls, { reason: M.ldapErrTlsExpired }));
    expect(tlsOf('DEPTH_ZERO_SELF_SIGNED_CERT')).toBe(fmt(M.ldapErrTls, { reason: M.ldapErrTlsSelfSigned }));
    expect(directoryError(Object.assign(new Error('x'), { code: 'EHOSTUNREACH' }), 'connect').kind).toBe('unreachable');
    expect(directoryError(new InvalidCredentialsError('x'), 'operation').kind).toBe('credentials');
    expect(directoryError(new NoSuchObjectError('x'), 'operation').kind).toBe('no_base');
    expect(directoryError(new ProtocolError('unsupported extended operation'), 'tls').kind).toBe('starttls');
    expect(directoryError(new ProtocolError('bad request'), 'operation').message).toBe(fmt(M.ldapErrServer, { message: 'bad request' }));
  });

  describe('user selection and mapping (core/ldapSelection.ts, issue 33)', () => {
    const groups = `ou=groups,dc=example,dc=com`;
    const admin = async (work: (c: Client) => Promise<void>) => {
      const c = new Client({ url: `ldap://127.0.0.1:${s.port}` });
      try {
        await c.bind(s.adminDn, s.adminPassword);
        await work(c);
      } finally {
        await c.unbind();
      }
    };
    const group = (c: Client, cn: string, members: string[], unique = false) =>
      c.add(`cn=${cn},${groups}`, { objectClass: unique ? 'groupOfUniqueNames' : 'groupOfNames', cn, [unique ? 'uniqueMember' : 'member']: members });

    beforeAll(async () => {
      await admin(async (c) => {
        // vpn → alice, nested1 (and the directory's root DN, which is no entry); nested1 (uniqueMember) → carl, nested2;
        // nested2 → bob spelt otherwise, and vpn again: a cycle.
        await group(c, 'nested2', [`UID=bob , ou=People,dc=example,dc=com`, `cn=vpn,${groups}`]);
        await group(c, 'nested1', [s.userDn('carl'), `cn=nested2,${groups}#'0101'B`], true);
        await group(c, 'vpn', [s.userDn('alice'), `cn=nested1,${groups}`, s.adminDn]);
        // A chain of 12 groups, one inside the other.
        for (let i = 11; i >= 0; i--) await group(c, `chain${i}`, [i === 11 ? s.userDn('alice') : `cn=chain${i + 1},${groups}`]);
        await c.modify(s.userDn('alice'), [
          new Change({ operation: 'add', modification: new Attribute({ type: 'mail', values: ['Alice.Smith@example.com'] }) }),
          new Change({ operation: 'add', modification: new Attribute({ type: 'telephoneNumber', values: ['13800000001'] }) }),
        ]);
      });
    });

    const config = (over: Partial<DirectoryConfig> = {}): DirectoryConfig => ({
      type: 1,
      base_dn: s.suffix,
      user_group: '',
      user_filter: '',
      name_attr: '',
      name_lower: 0,
      note_attr: 'description',
      phone_attr: '',
      email_attr: '',
      ...over,
    });
    const selected = async (c: DirectoryConfig): Promise<DirectoryUser[] | string> => {
      try {
        return await withDirectory(OPEN, plain(), async (d) => {
          await d.bind(s.adminDn, s.adminPassword);
          const out: DirectoryUser[] = [];
          for await (const page of selectedUsers(d, c)) out.push(...page);
          return out;
        });
      } catch (e) {
        return `${(e as DirectoryError).kind}: ${(e as Error).message}`;
      }
    };
    const names = async (c: DirectoryConfig) => {
      const users = await selected(c);
      return typeof users === 'string' ? users : users.map((u) => u.username).sort();
    };

    it('walks a group’s members through nested groups (member, uniqueMember), ends a cycle, skips what is no entry', async () => {
      expect(await names(config())).toEqual(['alice', 'bob', 'carl']);
      expect(await names(config({ user_group: `cn=vpn,${groups}` }))).toEqual(['alice', 'bob', 'carl']);
      // Entering the cycle elsewhere reaches the same users.
      expect(await names(config({ user_group: `cn=nested2,${groups}` }))).toEqual(['alice', 'bob', 'carl']);
      expect(await names(config({ user_group: `cn=nested1,${groups}` }))).toEqual(['alice', 'bob', 'carl']);
      // The group and a filter: both must hold.
      expect(await names(config({ user_group: `cn=vpn,${groups}`, user_filter: '(|(uid=bob)(uid=carl))' }))).toEqual(['bob', 'carl']);
      expect(await names(config({ user_filter: '(description=研发部)' }))).toEqual(['alice']);
      // A group that is not there, an entry that is no group, a nesting deeper than the bound.
      expect(await names(config({ user_group: `cn=nobody,${groups}` }))).toBe(`no_group: ${M.ldapGroupMissing}`);
      expect(await names(config({ user_group: s.userDn('alice') }))).toBe(`no_group: ${M.ldapGroupNotGroup}`);
      expect(await names(config({ user_group: `cn=chain1,${groups}` }))).toEqual(['alice']);
      expect(await names(config({ user_group: `cn=chain0,${groups}` }))).toBe(`group_limit: ${fmt(M.ldapGroupTooDeep, { n: 10 })}`);
    });

    it('maps the chosen attributes: the name (a mail keeps its local part, the rule of memberNameOf), note, phone, e-mail', async () => {
      const users = (await selected(config({ name_attr: 'mail', name_lower: 1, phone_attr: 'telephoneNumber', email_attr: 'mail', note_attr: '' }))) as DirectoryUser[];
      // Only users with the name attribute are users.
      expect(users.map(({ uuid: _uuid, dn: _dn, ...u }) => u)).toEqual([
        { username: 'Alice.Smith@example.com', member_name: 'alice.smith', description: '', phone: '13800000001', email: 'Alice.Smith@example.com', disabled: false },
      ]);
      const kept = (await selected(config({ name_attr: 'mail' }))) as DirectoryUser[];
      expect(kept.map((u) => [u.member_name, u.description])).toEqual([['Alice.Smith', '研发部']]);
    });

    it('asks Active Directory for nested groups with the in-chain rule, in the filter’s text', () => {
      const dn = 'CN=VPN (all),OU=Groups,DC=corp,DC=example';
      expect(adGroupFilter(dn)).toBe('(memberOf:1.2.840.113556.1.4.1941:=CN=VPN \\28all\\29,OU=Groups,DC=corp,DC=example)');
      const ad = directoryReader({ type: 2, name_attr: '', name_lower: 0, note_attr: 'description', phone_attr: 'mobile', email_attr: 'mail' });
      expect(selectionFilter(ad, { type: 2, user_group: dn, user_filter: '(department=Sales)' })).toBe(
        '(&(&(objectClass=user)(sAMAccountName=*)(!(objectClass=computer)))(department=Sales)(memberOf:1.2.840.113556.1.4.1941:=CN=VPN \\28all\\29,OU=Groups,DC=corp,DC=example))',
      );
      expect(ad.attributes).toEqual(['sAMAccountName', 'description', 'mobile', 'mail', 'objectGUID', 'userAccountControl']);
      // OpenLDAP walks the group instead: its filter names no group.
      const open = directoryReader({ type: 1, name_attr: 'mail', name_lower: 0, note_attr: 'description', phone_attr: '', email_attr: 'mail' });
      expect(selectionFilter(open, { type: 1, user_group: dn, user_filter: '' })).toBe('(mail=*)');
      expect(open.attributes).toEqual(['mail', 'description', 'entryUUID', 'shadowExpire']);
    });
  });
});
