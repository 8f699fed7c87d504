import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { CODE, getMemberProfile, memberProfiles, reissueMemberProfile, ROUTER_TYPE, CM } from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';

const certOf = (profile: string) => new X509Certificate(/<cert>\n([\s\S]+?)\n<\/cert>/.exec(profile)![1]!);

/** GET /router/profile and POST /router/reissue: a software member's .ovpn, and revoking it by re-issuing. */
describeEachDatabase('connection profiles', (t: () => TestApp) => {
  type Main = Awaited<ReturnType<typeof newAccount>>;
  let main: Main;
  let other: Main;
  let center: string;
  let staff: string;
  let router: string;
  let net: { id: number; network_number: string };
  let otherNet: { id: number; network_number: string };
  let theirStaff: string;

  const download = (token: string, network_number: string, router_name: string) => t().call(getMemberProfile, { token, query: { network_number, router_name } });
  const reissue = (token: string, router_name: string) => t().call(reissueMemberProfile, { token, body: { router_name } });

  beforeAll(async () => {
    main = await newAccount(t());
    other = await newAccount(t());
    [center, router] = (await seedFreshMembers(t(), main.account.id, 2)) as [string, string];
    [staff] = (await seedFreshMembers(t(), main.account.id, 1, { router_type: ROUTER_TYPE.software })) as [string];
    net = await seedNetwork(t(), main.account.id, { center: [center], point: [staff, router] });
    const [theirCenter] = await seedFreshMembers(t(), other.account.id, 1);
    [theirStaff] = (await seedFreshMembers(t(), other.account.id, 1, { router_type: ROUTER_TYPE.software })) as [string];
    otherNet = await seedNetwork(t(), other.account.id, { center: [theirCenter!], point: [theirStaff] });
  });

  describe('GET /router/profile', () => {
    it("is the member's own profile: everything inline, its certificate and key only", async () => {
      const res = await download(main.token, net.network_number, staff.toUpperCase());
      expect(res.status).toBe(200);
      expect(res.file!.filename).toBe(`${staff}-${net.network_number}.ovpn`);
      expect(res.file!.contentType).toContain('application/x-openvpn-profile');
      const text = res.file!.body.toString('utf8');
      for (const tag of ['ca', 'cert', 'key', 'tls-crypt']) expect(text.match(new RegExp(`<${tag}>`, 'g'))).toHaveLength(1);
      expect(certOf(text).subject).toContain(`CN=${staff}`);
      expect(text).toMatch(/^client$/m);
      expect(text).toMatch(/^remote-cert-tls server$/m);
      expect(text).toMatch(/^auth-user-pass$/m);
      expect(text).toContain(`verify-x509-name ${center} name`);
    });

    it('is for software members only', async () => {
      const res = await download(main.token, net.network_number, router);
      expect([res.code, res.msg]).toEqual([422, CM.profileSoftwareOnly]);
    });

    it("never gives another tenant's member or network", async () => {
      expect((await download(main.token, otherNet.network_number, theirStaff)).code).toBe(CODE.notFound);
      expect((await download(main.token, net.network_number, theirStaff)).code).toBe(CODE.notFound);
      expect((await download(other.token, net.network_number, staff)).code).toBe(CODE.notFound);
    });

    it('needs the member edit permission, and the network in the role', async () => {
      const viewer = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.router': { create: 0, edit: 0, delete: 0 } });
      expect((await download(viewer, net.network_number, staff)).code).toBe(CODE.forbidden);
      const elsewhere = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['NOTTHISONE'] } });
      expect((await download(elsewhere, net.network_number, staff)).code).toBe(CODE.forbidden);
      const editor = await ramToken(t(), main.account.id);
      expect((await download(editor, net.network_number, staff)).status).toBe(200);
    });
  });

  describe('GET /router/profiles', () => {
    it("lists the member's networks the caller may see, and the login its people type", async () => {
      const res = await t().call(memberProfiles, { token: main.token, query: { router_name: staff } });
      expect(res.code).toBe(CODE.ok);
      const sign = (await t().db.selectFrom('account').select('sign').where('id', '=', main.account.id).executeTakeFirstOrThrow()).sign;
      expect(res.data).toEqual({ login: `${staff}@${sign}`, phone: expect.any(String), networks: [{ network_number: net.network_number, network_name: expect.any(String) }] });
      const elsewhere = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['NOTTHISONE'] } });
      expect((await t().call(memberProfiles, { token: elsewhere, query: { router_name: staff } })).data!.networks).toEqual([]);
      expect((await t().call(memberProfiles, { token: other.token, query: { router_name: staff } })).code).toBe(CODE.notFound);
    });
  });

  describe('POST /router/reissue', () => {
    it('revokes the old certificate (in the CRL) and the next profile carries a new one', async () => {
      const before = certOf((await download(main.token, net.network_number, staff)).file!.body.toString('utf8'));
      const res = await reissue(main.token, staff);
      expect(res.code).toBe(CODE.ok);
      await t().ctx.events.settle();
      const after = certOf((await download(main.token, net.network_number, staff)).file!.body.toString('utf8'));
      expect(after.serialNumber).not.toBe(before.serialNumber);
      const old = await t().db.selectFrom('member_certificate').select('revoked_at').where('serial', '=', before.serialNumber.toLowerCase().replace(/^(00)+/, '')).where('network_id', '=', net.id).executeTakeFirstOrThrow();
      expect(old.revoked_at).not.toBeNull();
      // The CRL the centers load lists it (read by OpenSSL, as OpenVPN reads it).
      const { crl } = await t().db.selectFrom('network_pki').select('crl').where('network_id', '=', net.id).executeTakeFirstOrThrow();
      const listed = execFileSync('openssl', ['crl', '-noout', '-text'], { input: crl }).toString();
      expect(listed.toUpperCase()).toContain(`SERIAL NUMBER: ${before.serialNumber.toUpperCase()}`);
    });

    it('refuses a hardware member, and a member of another tenant', async () => {
      expect([(await reissue(main.token, router)).code, (await reissue(main.token, router)).msg]).toEqual([422, CM.profileSoftwareOnly]);
      expect((await reissue(main.token, theirStaff)).code).toBe(CODE.notFound);
    });

    it('needs the member edit permission', async () => {
      const viewer = await ramToken(t(), main.account.id, { ...FULL_ROLE, 'easylink.router': { create: 0, edit: 0, delete: 0 } });
      expect((await reissue(viewer, staff)).code).toBe(CODE.forbidden);
    });
  });
});
