import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto } from 'node:crypto';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { serverAuthOnlyCertificate } from '../../test/oldCertificates';
import { createSecretBox } from '../core/secretBox';
import { SecretKey } from '../core/secretKey';
import { PKI_VALIDITY, PkiError } from './pki';
import { deviceFilesOf, deviceFilesOfMembers, dueForRenewal, ensureMemberCertificate, ensureNetworkCa, refreshCrl, revokeMemberCertificate } from './pkiStore';

const crypto = webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0];
const DAY = 24 * 3600 * 1000;
/** A fixed moment: nothing here reads the clock. */
const NOW = new Date('2026-03-01T08:00:00Z');
const later = (days: number) => new Date(NOW.getTime() + days * DAY);

const box = createSecretBox(new SecretKey(randomBytes(32)));
let netSeq = 0;

async function newNetwork(t: TestApp, tenantId: number): Promise<{ id: number; number: string }> {
  const number = `NPKI${process.pid % 1000}${++netSeq}${randomBytes(3).toString('hex')}`;
  const row = await t.db
    .insertInto('network')
    .values({ tenant_id: tenantId, network_number: number, network_name: 'pki', create_time: NOW.getTime(), update_time: NOW.getTime() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, number };
}

const verifiesWith = async (certPem: string, caPem: string) =>
  new x509.X509Certificate(certPem).verify({ publicKey: new x509.X509Certificate(caPem).publicKey, date: NOW }, crypto);

describeEachDatabase('the network PKI in the database', (t) => {
  let tenant: number;
  let other: number;
  beforeAll(async () => {
    tenant = (await newAccount(t())).account.id;
    other = (await newAccount(t())).account.id;
  });

  it("makes a network's CA once, its key sealed, even when asked twice at once", async () => {
    const net = await newNetwork(t(), tenant);
    const [a, b] = await Promise.all([ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW), ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW)]);
    expect(a.caCertPem).toBe(b.caCertPem);
    expect([a.created, b.created].filter(Boolean)).toHaveLength(1);
    const again = await ensureNetworkCa(t().db, box, tenant, net.id, net.number, later(1));
    expect(again).toEqual({ ...a, created: false });
    expect(new x509.X509Certificate(a.caCertPem).subject).toContain(net.number);
    expect(new x509.X509Crl(a.crlPem).entries).toEqual([]);

    const row = await t().db.selectFrom('network_pki').selectAll().where('network_id', '=', net.id).executeTakeFirstOrThrow();
    expect(row.tenant_id).toBe(tenant);
    expect(row.ca_key_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    expect(box.openText(row.ca_key_sealed, `network_pki:${net.id}`)).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    expect(() => createSecretBox(new SecretKey(randomBytes(32))).open(row.ca_key_sealed, `network_pki:${net.id}`)).toThrow();
  });

  it("refuses another tenant's network", async () => {
    const net = await newNetwork(t(), other);
    await expect(ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW)).rejects.toThrow(PkiError);
    expect(await t().db.selectFrom('network_pki').select('network_id').where('network_id', '=', net.id).execute()).toEqual([]);
  });

  it("issues a member's certificate from the network's CA, keeps it sealed and gives the same one back", async () => {
    const net = await newNetwork(t(), tenant);
    await expect(ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 1, commonName: 'c1', role: 'server', now: NOW })).rejects.toThrow(/no CA/);
    const ca = await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const req = { tenantId: tenant, networkId: net.id, memberId: 7, commonName: 'center-7', role: 'server' as const, now: NOW };
    const first = await ensureMemberCertificate(t().db, box, req);
    expect(first.issued).toBe(true);
    expect(await verifiesWith(first.certPem, ca.caCertPem)).toBe(true);
    expect(new x509.X509Certificate(first.certPem).getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);

    const row = await t().db.selectFrom('member_certificate').selectAll().where('id', '=', first.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ tenant_id: tenant, network_id: net.id, member_id: 7, role: 'server', common_name: 'center-7', serial: first.serial, revoked_at: null, not_after: first.notAfter.getTime() });
    expect(row.key_sealed).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain('PRIVATE KEY');
    expect(box.openText(row.key_sealed, `member_certificate:${net.id}:${first.serial}`)).toBe(first.keyPem);

    const again = await ensureMemberCertificate(t().db, box, { ...req, now: later(100) });
    expect(again).toEqual({ ...first, issued: false });

    // a new role or name, or an end within the window, gets a new certificate
    const asClient = await ensureMemberCertificate(t().db, box, { ...req, role: 'client', now: later(1) });
    expect(asClient.issued).toBe(true);
    expect(asClient.serial).not.toBe(first.serial);
    expect(new x509.X509Certificate(asClient.certPem).getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual([x509.ExtendedKeyUsage.clientAuth]);
    const nearEnd = new Date(asClient.notAfter.getTime() - (PKI_VALIDITY.renewalWindowDays - 1) * DAY);
    const renewed = await ensureMemberCertificate(t().db, box, { ...req, role: 'client', now: nearEnd });
    expect(renewed.issued).toBe(true);
    expect(renewed.notAfter.getTime()).toBeGreaterThan(asClient.notAfter.getTime());
  });

  it("replaces a center's certificate from before clientAuth, keeping the old one in force, and reads no point's", async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const pki = await t().db.selectFrom('network_pki').selectAll().where('network_id', '=', net.id).executeTakeFirstOrThrow();
    const ca = { certPem: pki.ca_cert, keyPem: box.openText(pki.ca_key_sealed, `network_pki:${net.id}`) };
    // As an older release stored them: a center's certificate with serverAuth only, and a point's.
    const old = await serverAuthOnlyCertificate(ca, 'center-9', NOW);
    const store = (memberId: number, role: string, commonName: string, cert: { certPem: string; keyPem: string; serial: string; notAfter: Date }) =>
      t()
        .db.insertInto('member_certificate')
        .values({
          tenant_id: tenant,
          network_id: net.id,
          member_id: memberId,
          role,
          common_name: commonName,
          serial: cert.serial,
          cert: cert.certPem,
          key_sealed: box.seal(cert.keyPem, `member_certificate:${net.id}:${cert.serial}`),
          not_after: cert.notAfter.getTime(),
          revoked_at: null,
          create_time: NOW.getTime(),
        })
        .execute();
    await store(9, 'server', 'center-9', old);
    // The point's row holds no certificate at all: read, it would throw.
    await store(10, 'client', 'point-10', { certPem: 'not a certificate', keyPem: 'k', serial: '0a10', notAfter: later(700) });

    const healed = await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 9, commonName: 'center-9', role: 'server', now: NOW });
    expect(healed.issued).toBe(true);
    expect(new x509.X509Certificate(healed.certPem).getExtension(x509.ExtendedKeyUsageExtension)!.usages).toEqual([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]);
    expect(await verifiesWith(healed.certPem, ca.certPem)).toBe(true);
    const rows = await t().db.selectFrom('member_certificate').select(['serial', 'revoked_at']).where('network_id', '=', net.id).where('member_id', '=', 9).orderBy('id').execute();
    expect(rows).toEqual([
      { serial: old.serial, revoked_at: null },
      { serial: healed.serial, revoked_at: null },
    ]);
    expect((await deviceFilesOf(t().db, box, tenant, net.id, 9))!.cert).toBe(healed.certPem);
    // healed once: the next call keeps it
    expect((await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 9, commonName: 'center-9', role: 'server', now: later(2) })).issued).toBe(false);

    const point = await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 10, commonName: 'point-10', role: 'client', now: later(1) });
    expect(point).toMatchObject({ issued: false, serial: '0a10', certPem: 'not a certificate' });
  });

  it("gives a network a tls-crypt key with its CA, sealed and bound to its row, the same for every member and another network's another", async () => {
    const a = await newNetwork(t(), tenant);
    const b = await newNetwork(t(), tenant);
    for (const net of [a, b]) {
      await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
      for (const [memberId, role] of [[1, 'server'], [2, 'client'], [3, 'client']] as const) {
        await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId, commonName: `m${memberId}`, role, now: NOW });
      }
    }
    const filesA = await deviceFilesOfMembers(t().db, box, tenant, a.id, [1, 2, 3]);
    const keyA = filesA.get(1)!.tlsCrypt!;
    expect(keyA).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n([0-9a-f]{32}\n){16}-----END OpenVPN Static key V1-----\n$/);
    expect([...filesA.values()].map((f) => f.tlsCrypt)).toEqual([keyA, keyA, keyA]);
    const keyB = (await deviceFilesOf(t().db, box, tenant, b.id, 2))!.tlsCrypt;
    expect(keyB).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);
    expect(keyB).not.toBe(keyA);

    const row = await t().db.selectFrom('network_pki').select('tls_crypt_sealed').where('network_id', '=', a.id).executeTakeFirstOrThrow();
    expect(row.tls_crypt_sealed).toMatch(/^v1\./);
    expect(row.tls_crypt_sealed).not.toContain('Static key');
    expect(row.tls_crypt_sealed).not.toContain(keyA.split('\n')[1]);
    // bound to its row: neither another network's row nor the CA key's place opens it
    expect(() => box.open(row.tls_crypt_sealed!, `network_pki:${b.id}:tls-crypt`)).toThrow();
    expect(() => box.open(row.tls_crypt_sealed!, `network_pki:${a.id}`)).toThrow();
    await t().db.updateTable('network_pki').set({ tls_crypt_sealed: row.tls_crypt_sealed }).where('network_id', '=', b.id).execute();
    await expect(deviceFilesOf(t().db, box, tenant, b.id, 2)).rejects.toThrow(/does not open/);
    // another tenant reads nothing
    expect((await deviceFilesOfMembers(t().db, box, other, a.id, [1, 2, 3])).size).toBe(0);
  });

  it('gives a network made before tls-crypt keys one when its CA is next asked for, once, and leaves the CRL time alone', async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 1, commonName: 'm1', role: 'client', now: NOW });
    await t().db.updateTable('network_pki').set({ tls_crypt_sealed: null }).where('network_id', '=', net.id).execute();
    expect((await deviceFilesOf(t().db, box, tenant, net.id, 1))!.tlsCrypt).toBeNull();

    // another tenant's call adds nothing
    await expect(ensureNetworkCa(t().db, box, other, net.id, net.number, later(1))).rejects.toThrow(PkiError);
    expect((await deviceFilesOf(t().db, box, tenant, net.id, 1))!.tlsCrypt).toBeNull();

    await Promise.all([ensureNetworkCa(t().db, box, tenant, net.id, net.number, later(1)), ensureNetworkCa(t().db, box, tenant, net.id, net.number, later(1))]);
    const key = (await deviceFilesOf(t().db, box, tenant, net.id, 1))!.tlsCrypt;
    expect(key).toMatch(/^-----BEGIN OpenVPN Static key V1-----\n/);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, later(2));
    expect((await deviceFilesOf(t().db, box, tenant, net.id, 1))!.tlsCrypt).toBe(key);
    const row = await t().db.selectFrom('network_pki').select(['update_time', 'tls_crypt_sealed']).where('network_id', '=', net.id).executeTakeFirstOrThrow();
    expect(row.update_time).toBe(NOW.getTime());
    expect(box.openText(row.tls_crypt_sealed!, `network_pki:${net.id}:tls-crypt`)).toBe(key);
  });

  it('refuses a sealed key moved into another row', async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const a = await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 1, commonName: 'a', role: 'client', now: NOW });
    const b = await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 2, commonName: 'b', role: 'client', now: NOW });
    const sealedA = (await t().db.selectFrom('member_certificate').select('key_sealed').where('id', '=', a.id).executeTakeFirstOrThrow()).key_sealed;
    await t().db.updateTable('member_certificate').set({ key_sealed: sealedA }).where('id', '=', b.id).execute();
    await expect(ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 2, commonName: 'b', role: 'client', now: NOW })).rejects.toThrow(/does not open/);
  });

  it("revokes a leaving member's certificates and puts them in the CRL, signed by the network's CA", async () => {
    const net = await newNetwork(t(), tenant);
    const ca = await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const base = { tenantId: tenant, networkId: net.id, now: NOW };
    const leaving = await ensureMemberCertificate(t().db, box, { ...base, memberId: 11, commonName: 'p11', role: 'client' });
    const leavingOld = await ensureMemberCertificate(t().db, box, { ...base, memberId: 11, commonName: 'p11-renamed', role: 'client' });
    const staying = await ensureMemberCertificate(t().db, box, { ...base, memberId: 12, commonName: 'p12', role: 'client' });

    const at = later(3);
    const r = await revokeMemberCertificate(t().db, box, tenant, net.id, 11, at);
    expect(r.serials.sort()).toEqual([leaving.serial, leavingOld.serial].sort());
    const stored = await t().db.selectFrom('network_pki').select(['crl', 'update_time']).where('network_id', '=', net.id).executeTakeFirstOrThrow();
    expect(stored).toEqual({ crl: r.crlPem, update_time: at.getTime() });
    const crl = new x509.X509Crl(r.crlPem!);
    expect(await crl.verify({ publicKey: new x509.X509Certificate(ca.caCertPem) }, crypto)).toBe(true);
    expect(crl.entries.map((e) => e.serialNumber).sort()).toEqual(r.serials.sort());
    expect(crl.entries.every((e) => e.revocationDate.getTime() === at.getTime())).toBe(true);
    expect(crl.findRevoked(staying.serial)).toBeNull();
    const revokedAt = await t().db.selectFrom('member_certificate').select(['member_id', 'revoked_at']).where('network_id', '=', net.id).orderBy('id').execute();
    expect(revokedAt).toEqual([
      { member_id: 11, revoked_at: at.getTime() },
      { member_id: 11, revoked_at: at.getTime() },
      { member_id: 12, revoked_at: null },
    ]);

    // nothing more to revoke: the CRL stays as it is
    expect(await revokeMemberCertificate(t().db, box, tenant, net.id, 11, later(4))).toEqual({ serials: [], crlPem: r.crlPem });
    // another tenant cannot revoke here
    expect(await revokeMemberCertificate(t().db, box, other, net.id, 12, later(4))).toEqual({ serials: [], crlPem: null });
    // the member comes back: a new certificate, the revoked ones stay in the CRL
    const back = await ensureMemberCertificate(t().db, box, { ...base, memberId: 11, commonName: 'p11', role: 'client', now: later(5) });
    expect(back.issued).toBe(true);
    const next = await revokeMemberCertificate(t().db, box, tenant, net.id, 12, later(6));
    expect(new x509.X509Crl(next.crlPem!).entries.map((e) => e.serialNumber).sort()).toEqual([leaving.serial, leavingOld.serial, staying.serial].sort());
  });

  it('keeps every serial when members leave at the same moment', async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const members = [21, 22, 23, 24];
    const certs = [];
    for (const m of members) certs.push(await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: m, commonName: `m${m}`, role: 'client', now: NOW }));
    await Promise.all(members.map((m) => revokeMemberCertificate(t().db, box, tenant, net.id, m, later(1))));
    const { crl } = await t().db.selectFrom('network_pki').select('crl').where('network_id', '=', net.id).executeTakeFirstOrThrow();
    expect(new x509.X509Crl(crl).entries.map((e) => e.serialNumber).sort()).toEqual(certs.map((c) => c.serial).sort());
  });

  it('says which certificates and CRLs are due, and a rebuilt CRL is no longer due', async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    const base = { tenantId: tenant, networkId: net.id, role: 'client' as const };
    const a = await ensureMemberCertificate(t().db, box, { ...base, memberId: 31, commonName: 'a', now: NOW });
    const b = await ensureMemberCertificate(t().db, box, { ...base, memberId: 32, commonName: 'b', now: later(10) });
    const c = await ensureMemberCertificate(t().db, box, { ...base, memberId: 33, commonName: 'c', now: NOW });
    await revokeMemberCertificate(t().db, box, tenant, net.id, 33, NOW);
    const ours = async (at: Date) => {
      const due = await dueForRenewal(t().db, at);
      return {
        certificates: due.certificates.filter((d) => d.networkId === net.id).map((d) => d.memberId),
        crl: due.crls.some((d) => d.networkId === net.id),
      };
    };

    expect(await ours(NOW)).toEqual({ certificates: [], crl: false });
    const aWindow = new Date(a.notAfter.getTime() - PKI_VALIDITY.renewalWindowDays * DAY);
    expect(await ours(new Date(aWindow.getTime() - 1))).toEqual({ certificates: [], crl: true });
    expect(await ours(aWindow)).toEqual({ certificates: [31], crl: true });
    expect(await ours(later(PKI_VALIDITY.memberDays + 1))).toEqual({ certificates: [31, 32], crl: true });
    const due = (await dueForRenewal(t().db, aWindow)).certificates.find((d) => d.memberId === 31)!;
    expect(due).toEqual({ id: a.id, tenantId: tenant, networkId: net.id, memberId: 31, role: 'client', commonName: 'a', serial: a.serial, notAfter: a.notAfter });

    // the CRL was built at NOW (the revocation): due within the window of its next update
    const crlDue = later(PKI_VALIDITY.crlDays - PKI_VALIDITY.renewalWindowDays);
    expect((await ours(new Date(crlDue.getTime() - 1))).crl).toBe(false);
    expect((await ours(crlDue)).crl).toBe(true);
    const rebuilt = await refreshCrl(t().db, box, tenant, net.id, crlDue);
    expect(new x509.X509Crl(rebuilt!).entries.map((e) => e.serialNumber)).toEqual([c.serial]);
    expect((await ours(crlDue)).crl).toBe(false);
    expect(await refreshCrl(t().db, box, other, net.id, crlDue)).toBeNull();

    // renewing a member takes it off the list; its older certificate no longer counts
    await ensureMemberCertificate(t().db, box, { ...base, memberId: 31, commonName: 'a', now: aWindow });
    expect((await ours(aWindow)).certificates).toEqual([]);
    expect(b.issued).toBe(true);
  });

  it("goes with its network", async () => {
    const net = await newNetwork(t(), tenant);
    await ensureNetworkCa(t().db, box, tenant, net.id, net.number, NOW);
    await ensureMemberCertificate(t().db, box, { tenantId: tenant, networkId: net.id, memberId: 41, commonName: 'x', role: 'client', now: NOW });
    await t().db.deleteFrom('network').where('id', '=', net.id).execute();
    expect(await t().db.selectFrom('network_pki').select('network_id').where('network_id', '=', net.id).execute()).toEqual([]);
    expect(await t().db.selectFrom('member_certificate').select('id').where('network_id', '=', net.id).execute()).toEqual([]);
  });
});
