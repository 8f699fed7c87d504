import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { webcrypto } from 'node:crypto';
import { addNetworkMember, deleteNetwork, deleteRouter, editNetwork, removeNetworkMember, type Endpoint } from '@hublink/contract';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { createNetworkThroughApi, seedFreshMembers } from '../../test/networks';
import { serverAuthOnlyCertificate } from '../../test/oldCertificates';
import { renewCertificates, syncNetworkCertificates } from './certificates';
import { PKI_VALIDITY } from './pki';
import { dueForRenewal } from './pkiStore';
import { pkiModule } from './pkiModule';

const crypto = webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0];
const DAY = 24 * 3600 * 1000;
const run = promisify(execFile);

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-certs-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The serials of a CRL as `openssl crl -text` prints them (uppercase hex), after it checked the CA's signature. */
async function crlSerials(crlPem: string, caPem: string): Promise<string[]> {
  const crlFile = path.join(dir, `crl-${process.hrtime.bigint()}.pem`);
  const caFile = `${crlFile}.ca`;
  fs.writeFileSync(crlFile, crlPem);
  fs.writeFileSync(caFile, caPem);
  const { stdout, stderr } = await run('openssl', ['crl', '-noout', '-text', '-in', crlFile, '-CAfile', caFile]);
  expect(stderr + stdout).toMatch(/verify OK/);
  return [...stdout.matchAll(/Serial Number: ([0-9A-F]+)/g)].map((m) => m[1]!.toLowerCase());
}

describeEachDatabase('the PKI follows the network members', (t) => {
  // The tenant of the test that runs (a new one per test: a plan holds 10 members in networks).
  let token: string;
  let tenant: number;

  beforeEach(async () => {
    const main = await newAccount(t());
    token = main.token;
    tenant = main.account.id;
  });

  /**
   * Until no event of the tenant waits for a subscriber. One settle() is not enough: it returns after a
   * pass that took nothing, even when the delivery it waited for held back the next one of the same
   * subscriber and tenant (docs/decisions.md).
   */
  const settle = (tenantId = tenant) =>
    expect
      .poll(async () => {
        await t().ctx.events.settle();
        return (await t().db.selectFrom('event_delivery').select('id').where('tenant_id', '=', tenantId).where('state', '=', 'pending').execute()).length;
      })
      .toBe(0);

  const ok = async (e: Endpoint, body: Record<string, unknown>) => {
    const res = await t().call(e, { token, body });
    expect({ path: e.path, code: res.code, msg: res.msg }).toMatchObject({ path: e.path, code: 200 });
    await settle();
  };

  const networkIdOf = async (number: string) =>
    (await t().db.selectFrom('network').select('id').where('network_number', '=', number).where('tenant_id', '=', tenant).executeTakeFirstOrThrow()).id;

  const memberIdOf = async (name: string) =>
    (await t().db.selectFrom('member').select('id').where('router_key', '=', name.toLowerCase()).where('tenant_id', '=', tenant).executeTakeFirstOrThrow()).id;

  const certificatesOf = (networkId: number) =>
    t().db.selectFrom('member_certificate').selectAll().where('network_id', '=', networkId).orderBy('id').execute();

  const pkiOf = (networkId: number) => t().db.selectFrom('network_pki').selectAll().where('network_id', '=', networkId).executeTakeFirst();

  /** Each member's certificates in force, by name: [role, …] newest last. */
  async function inForce(networkId: number): Promise<Record<string, string[]>> {
    const out: Record<string, string[]> = {};
    for (const c of await certificatesOf(networkId)) if (c.revoked_at === null) (out[c.common_name] ??= []).push(c.role);
    return out;
  }

  /** A network made through the API: two centers and two points; events settled. */
  async function network() {
    const [c1, c2, p1, p2] = await seedFreshMembers(t(), tenant, 4);
    const number = await createNetworkThroughApi(t(), token, { center: [c1!], point: [p1!, p2!] });
    await settle();
    return { number, id: await networkIdOf(number), c1: c1!, c2: c2!, p1: p1!, p2: p2! };
  }

  /** No delivery to the PKI's subscribers failed or waits for a retry. */
  async function noFailedDeliveries() {
    const rows = await t().db.selectFrom('event_delivery').select(['subscriber', 'state', 'error']).where('subscriber', 'like', 'pki:%').where('tenant_id', '=', tenant).execute();
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.state !== 'done' || r.error !== null)).toEqual([]);
  }

  it('gives a new network a CA and every member a certificate of its role, signed by that CA', async () => {
    const n = await network();
    const pki = await pkiOf(n.id);
    expect(pki).toMatchObject({ tenant_id: tenant });
    expect(new x509.X509Certificate(pki!.ca_cert).subject).toContain(n.number);
    expect(await inForce(n.id)).toEqual({ [n.c1]: ['server'], [n.p1]: ['client'], [n.p2]: ['client'] });
    const caKey = new x509.X509Certificate(pki!.ca_cert).publicKey;
    for (const c of await certificatesOf(n.id)) {
      expect(c.tenant_id).toBe(tenant);
      expect(c.member_id).toBe(await memberIdOf(c.common_name));
      expect(await new x509.X509Certificate(c.cert).verify({ publicKey: caKey }, crypto)).toBe(true);
    }
    await noFailedDeliveries();
  });

  it('issues a certificate to a member that joins, and nothing more when the same change arrives again', async () => {
    const n = await network();
    await ok(addNetworkMember, { network_number: n.number, router_name: n.c2, member_type: 'center' });
    expect(await inForce(n.id)).toEqual({ [n.c1]: ['server'], [n.c2]: ['server'], [n.p1]: ['client'], [n.p2]: ['client'] });

    // Events arrive at least once: a second delivery changes nothing.
    const before = await certificatesOf(n.id);
    const crl = (await pkiOf(n.id))!.crl;
    expect(await syncNetworkCertificates(t().ctx, tenant, n.id, new Date())).toEqual({ issued: [], revoked: [] });
    expect(await certificatesOf(n.id)).toEqual(before);
    expect((await pkiOf(n.id))!.crl).toBe(crl);
  });

  it('revokes the certificate of a member that leaves and lists it in the CRL', async () => {
    const n = await network();
    const [leaving] = (await certificatesOf(n.id)).filter((c) => c.common_name === n.p2);
    await ok(removeNetworkMember, { network_number: n.number, router_name: n.p2 });

    const row = (await certificatesOf(n.id)).find((c) => c.id === leaving!.id)!;
    expect(row.revoked_at).not.toBeNull();
    expect(await inForce(n.id)).toEqual({ [n.c1]: ['server'], [n.p1]: ['client'] });
    const pki = (await pkiOf(n.id))!;
    expect(await crlSerials(pki.crl, pki.ca_cert)).toEqual([leaving!.serial]);
    await noFailedDeliveries();
  });

  it('revokes the certificates of a deleted member in every network it was in', async () => {
    const a = await network();
    const b = await network();
    await ok(addNetworkMember, { network_number: b.number, router_name: a.p1, member_type: 'point' });
    const serials = (await Promise.all([certificatesOf(a.id), certificatesOf(b.id)])).flat().filter((c) => c.common_name === a.p1);
    expect(serials).toHaveLength(2);

    await ok(deleteRouter, { router_name: a.p1 });
    for (const n of [a, b]) {
      const pki = (await pkiOf(n.id))!;
      expect(await crlSerials(pki.crl, pki.ca_cert)).toEqual(serials.filter((c) => c.network_id === n.id).map((c) => c.serial));
      expect(Object.keys(await inForce(n.id))).not.toContain(a.p1);
    }
    await noFailedDeliveries();
  });

  it('gives a member that changes position a certificate of its new role and revokes the old one', async () => {
    const n = await network();
    const [old] = (await certificatesOf(n.id)).filter((c) => c.common_name === n.p1);
    await ok(editNetwork, { network_number: n.number, network_name: '测试网络', center: [n.c1, n.p1], point: [n.p2] });

    expect(await inForce(n.id)).toEqual({ [n.c1]: ['server'], [n.p1]: ['server'], [n.p2]: ['client'] });
    const pki = (await pkiOf(n.id))!;
    expect(await crlSerials(pki.crl, pki.ca_cert)).toEqual([old!.serial]);
    const current = (await certificatesOf(n.id)).find((c) => c.common_name === n.p1 && c.revoked_at === null)!;
    expect(new x509.X509Certificate(current.cert).getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
  });

  it("replaces on its next sync a center's certificate from before centers had clientAuth, and nothing else", async () => {
    const n = await network();
    const pki = (await pkiOf(n.id))!;
    const ca = { certPem: pki.ca_cert, keyPem: t().ctx.secretBox.openText(pki.ca_key_sealed, `network_pki:${n.id}`) };
    // The center's certificate as an older release issued it.
    const [center] = (await certificatesOf(n.id)).filter((c) => c.common_name === n.c1);
    const old = await serverAuthOnlyCertificate(ca, n.c1, new Date());
    await t()
      .db.updateTable('member_certificate')
      .set({ serial: old.serial, cert: old.certPem, key_sealed: t().ctx.secretBox.seal(old.keyPem, `member_certificate:${n.id}:${old.serial}`), not_after: old.notAfter.getTime() })
      .where('id', '=', center!.id)
      .execute();

    expect(await syncNetworkCertificates(t().ctx, tenant, n.id, new Date())).toEqual({ issued: [center!.member_id], revoked: [] });
    const rows = (await certificatesOf(n.id)).filter((c) => c.common_name === n.c1);
    expect(rows.map((r) => [r.serial === old.serial, r.revoked_at])).toEqual([
      [true, null],
      [false, null],
    ]);
    expect(new x509.X509Certificate(rows[1]!.cert).getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
    expect(await syncNetworkCertificates(t().ctx, tenant, n.id, new Date())).toEqual({ issued: [], revoked: [] });
  });

  it("leaves a deleted network to the cascade and another tenant's network alone", async () => {
    const n = await network();
    await ok(deleteNetwork, { network_number: n.number });
    expect(await pkiOf(n.id)).toBeUndefined();
    expect(await certificatesOf(n.id)).toEqual([]);
    await noFailedDeliveries();

    const other = await newAccount(t());
    const m = await seedFreshMembers(t(), other.account.id, 1);
    const theirNumber = await createNetworkThroughApi(t(), other.token, { center: m });
    const theirId = (await t().db.selectFrom('network').select('id').where('network_number', '=', theirNumber).executeTakeFirstOrThrow()).id;
    await settle(other.account.id);
    const before = await certificatesOf(theirId);
    expect(before).toHaveLength(1);
    expect(await syncNetworkCertificates(t().ctx, tenant, theirId, new Date())).toBeNull();
    expect(await certificatesOf(theirId)).toEqual(before);
  });

  it('lets a network be deleted while its PKI is being made (no deadlock on PostgreSQL) and then leaves it alone', async () => {
    const [c] = await seedFreshMembers(t(), tenant, 1);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const number = await createNetworkThroughApi(t(), token, { center: [c!] });
      // no settle: the sync of the new network runs while it is deleted
      codes.push((await t().call(deleteNetwork, { token, body: { network_number: number } })).code);
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 200]);
    await settle();
    await noFailedDeliveries();
    expect(await t().db.selectFrom('network_pki').select('network_id').where('tenant_id', '=', tenant).execute()).toEqual([]);
    expect(await t().db.selectFrom('member_certificate').select('id').where('tenant_id', '=', tenant).execute()).toEqual([]);
  });

  it('declares the renewal job', () => {
    expect(pkiModule.jobs?.map((j) => [j.name, j.schedule])).toEqual([['pki.renew-certificates', '43 3 * * *']]);
  });

  // Last: it moves time for every network of this database.
  it('reissues a certificate due for renewal in its current role, keeps the old one in force, and rebuilds the CRL', async () => {
    const n = await network();
    const [old] = (await certificatesOf(n.id)).filter((c) => c.common_name === n.p1);
    const crlBefore = (await pkiOf(n.id))!;
    // 20 days before its end: inside the renewal window
    const at = new Date(old!.not_after - (PKI_VALIDITY.renewalWindowDays - 10) * DAY);

    const result = await renewCertificates(t().ctx, at);
    expect(result.failures).toEqual([]);
    const rows = (await certificatesOf(n.id)).filter((c) => c.common_name === n.p1);
    expect(rows.map((r) => [r.role, r.revoked_at])).toEqual([
      ['client', null],
      ['client', null],
    ]);
    expect(result.renewed).toContain(rows[1]!.serial);
    expect(result.renewedMembers).toContainEqual({ tenantId: expect.any(Number), networkId: n.id, memberId: rows[1]!.member_id });
    expect(rows[1]!.not_after).toBe(at.getTime() + PKI_VALIDITY.memberDays * DAY);
    expect(result.crls).toContain(n.id);
    const pki = (await pkiOf(n.id))!;
    expect(pki.update_time).toBe(at.getTime());
    expect(pki.crl).not.toBe(crlBefore.crl);
    expect(new x509.X509Crl(pki.crl).nextUpdate!.getTime()).toBe(at.getTime() + PKI_VALIDITY.crlDays * DAY);

    // Done once: nothing of this network is due any more, and a second run issues nothing here.
    const due = await dueForRenewal(t().db, at);
    expect(due.certificates.filter((c) => c.networkId === n.id)).toEqual([]);
    expect(due.crls.filter((c) => c.networkId === n.id)).toEqual([]);
    const again = await renewCertificates(t().ctx, at);
    expect(again.renewed.filter((s) => rows.some((r) => r.serial === s))).toEqual([]);
  });
});
