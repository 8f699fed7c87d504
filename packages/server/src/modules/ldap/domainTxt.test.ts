import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { CODE, fmt, M, saveLdap, verifyLdapDomain } from '@hublink/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestAppOptions } from '../../../test/helpers';
import { startTxtDnsServer, type TxtDnsServer } from '../../../test/txtDnsServer';
import { ensureDomainVerified, verifyTxtName, verifyToken } from './domain';

/*
 * Domain ownership by a DNS TXT record (issue 33): the tenant's token at _hublink-verify.<domain>,
 * read through the resolvers config.ldapVerifyDns names (here a local authoritative server), proves
 * the domain as the HTTP file does. The file's way keeps its own messages; a TXT record that is there
 * but wrong says so.
 */

let dns: TxtDnsServer;
/** The domains' web site, where no file is ever placed here: every fetch is a 404. */
let web: http.Server;
const config: NonNullable<TestAppOptions['config']> = {};

beforeAll(async () => {
  dns = await startTxtDnsServer();
  web = http.createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('not found'));
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  config.ldapVerifyUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/{domain}/{file}`;
  config.ldapVerifyDns = [dns.server];
});
afterAll(async () => {
  await dns?.stop();
  await new Promise((resolve) => web?.close(resolve));
});

const body = (domain: string) => ({
  mode: 'public',
  domain,
  host: 'ldap.example.com',
  port: '389',
  base_dn: 'dc=example,dc=com',
  use_ssl: 0,
  type: 1,
  username: 'cn=admin,dc=example,dc=com',
  password: 'secret',
  sync_mode: 1,
  network_number: '',
});

describeEachDatabase(
  'LDAP domain verification by a DNS TXT record',
  (t) => {
    const proofs = () => t().db.selectFrom('ldap_domain').selectAll().orderBy('id').execute();

    it('names the TXT record in the 423, and a TXT record holding the token proves the domain', async () => {
      const a = await newAccount(t());
      const domain = `txt${randomBytes(3).toString('hex')}.example.cn`;
      const token = verifyToken(t().ctx, a.account.id, domain);
      const first = await t().call(saveLdap, { token: a.token, body: body(domain.toUpperCase()) });
      expect(first).toMatchObject({ code: CODE.furtherAction, msg: M.ldapDomainUnverified, data: { txt_name: `_hublink-verify.${domain}`, txt_value: token } });
      const url = config.ldapVerifyUrl!.replace('{domain}', domain).replace('{file}', (first.data as unknown as { file_name: string }).file_name);

      // Neither way done: the file's refusal, as before; and the resolver was asked at the TXT name.
      const before = await proofs();
      expect(await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).toMatchObject({ code: CODE.invalid, msg: fmt(M.ldapDomainFileMissing, { url }) });
      expect(dns.questions).toContainEqual({ name: verifyTxtName(domain), type: 16 });

      // A record there, not the token (another tenant's, say): the TXT record is named wrong; nothing written.
      const b = await newAccount(t());
      dns.set(verifyTxtName(domain), ['v=spf1 -all', verifyToken(t().ctx, b.account.id, domain)]);
      expect(await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).toMatchObject({
        code: CODE.invalid,
        msg: fmt(M.ldapDomainTxtWrong, { name: verifyTxtName(domain) }),
      });
      expect(await proofs()).toEqual(before);

      // The token among the name's other records proves it, for this tenant only.
      dns.set(verifyTxtName(domain), ['v=spf1 -all', ` ${token} `]);
      expect(await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).toMatchObject({ code: 200, msg: M.ldapDomainVerified });
      await expect(ensureDomainVerified(t().ctx, a.account.id, domain)).resolves.toBeUndefined();
      expect((await t().call(verifyLdapDomain, { token: b.token, body: { domain } })).msg).toBe(fmt(M.ldapDomainTxtWrong, { name: verifyTxtName(domain) }));
      await expect(ensureDomainVerified(t().ctx, b.account.id, domain)).rejects.toMatchObject({ code: CODE.furtherAction });
      const rows = (await proofs()).filter((r) => r.domain === domain);
      expect(rows).toEqual([expect.objectContaining({ tenant_id: a.account.id, token, verify_time: expect.any(Number) })]);
    });

    it('reads a long record split into several strings as one value, and a record at the domain itself proves nothing', async () => {
      const a = await newAccount(t());
      const domain = `split${randomBytes(3).toString('hex')}.example.cn`;
      const token = verifyToken(t().ctx, a.account.id, domain);
      // At the domain itself (not the _hublink-verify name): not looked at.
      dns.set(domain, [token]);
      expect((await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).code).toBe(CODE.invalid);
      // 300 characters: two strings of the one record (255 + 45), which together are not the token.
      dns.set(verifyTxtName(domain), [`${token}${'x'.repeat(300 - token.length)}`]);
      expect((await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).msg).toBe(fmt(M.ldapDomainTxtWrong, { name: verifyTxtName(domain) }));
      // A value over 255 bytes is split; the pieces are joined back (the token padded with spaces to 300).
      dns.set(verifyTxtName(domain), [`${token}${' '.repeat(300 - token.length)}`]);
      expect((await t().call(verifyLdapDomain, { token: a.token, body: { domain } })).code).toBe(200);
    });
  },
  { config },
);
