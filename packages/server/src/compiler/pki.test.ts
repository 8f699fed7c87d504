import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { webcrypto } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverAuthOnlyCertificate } from '../../test/oldCertificates';
import { certificateFacts, createCrl, createNetworkCa, crlNeedsRefresh, hasRoleUsages, issueMemberCertificate, needsRenewal, PKI_VALIDITY, PkiError, randomSerial, type KeyAndCertificate } from './pki';

const crypto = webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0];
const subtle = webcrypto.subtle;
const DAY = 24 * 3600 * 1000;
/** A fixed moment: nothing here reads the clock. */
const NOW = new Date('2026-03-01T08:00:00Z');

let ca: KeyAndCertificate;
let center: KeyAndCertificate;
let point: KeyAndCertificate;

beforeAll(async () => {
  ca = await createNetworkCa('N1001', NOW);
  center = await issueMemberCertificate(ca, { commonName: 'center-01', role: 'server', now: NOW });
  point = await issueMemberCertificate(ca, { commonName: 'point-01', role: 'client', serial: '0a0b0c', now: NOW });
});

const usagesOf = (pem: string) => {
  const cert = new x509.X509Certificate(pem);
  return {
    ku: cert.getExtension(x509.KeyUsagesExtension)?.usages,
    kuCritical: cert.getExtension(x509.KeyUsagesExtension)?.critical,
    eku: cert.getExtension(x509.ExtendedKeyUsageExtension)?.usages,
    ca: cert.getExtension(x509.BasicConstraintsExtension)?.ca,
  };
};

describe('a network CA', () => {
  it('is a self-signed P-256 CA for keyCertSign and cRLSign, about ten years', async () => {
    const cert = new x509.X509Certificate(ca.certPem);
    expect(cert.subject).toBe('CN=HubLink network N1001 CA, O=HubLink');
    expect(cert.issuer).toBe(cert.subject);
    expect(await cert.verify({ date: NOW }, crypto)).toBe(true);
    expect(cert.publicKey.algorithm).toMatchObject({ name: 'ECDSA', namedCurve: 'P-256' });
    const bc = cert.getExtension(x509.BasicConstraintsExtension)!;
    expect([bc.ca, bc.critical]).toEqual([true, true]);
    expect(usagesOf(ca.certPem).ku).toBe(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign);
    expect(cert.notAfter.getTime()).toBe(NOW.getTime() + PKI_VALIDITY.caDays * DAY);
    expect(cert.notBefore.getTime()).toBe(NOW.getTime() - PKI_VALIDITY.backdateMs);
    expect(ca.keyPem).toMatch(/^-----BEGIN PRIVATE KEY-----\n[^]+\n-----END PRIVATE KEY-----\n$/);
    expect(ca.certPem).toMatch(/^-----BEGIN CERTIFICATE-----\n[^]+\n-----END CERTIFICATE-----\n$/);
    expect(ca.serial).toBe(cert.serialNumber);
  });
});

describe('a member certificate', () => {
  it('verifies against its CA and names its subject and issuer', async () => {
    const cert = new x509.X509Certificate(center.certPem);
    expect(cert.subject).toBe('CN=center-01, O=HubLink');
    expect(cert.issuer).toBe(new x509.X509Certificate(ca.certPem).subject);
    expect(await cert.verify({ publicKey: new x509.X509Certificate(ca.certPem).publicKey, date: NOW }, crypto)).toBe(true);
    const chain = await new x509.X509ChainBuilder({ certificates: [new x509.X509Certificate(ca.certPem)] }).build(cert, crypto);
    expect(chain.map((c) => c.subject)).toEqual([cert.subject, 'CN=HubLink network N1001 CA, O=HubLink']);
  });

  it('does not verify against another network CA', async () => {
    const other = await createNetworkCa('N1002', NOW);
    const cert = new x509.X509Certificate(center.certPem);
    expect(await cert.verify({ publicKey: new x509.X509Certificate(other.certPem).publicKey, date: NOW }, crypto)).toBe(false);
  });

  it('has digitalSignature + keyAgreement, serverAuth and clientAuth for a center, clientAuth only for a point, CA:false', () => {
    const ku = x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement;
    expect(usagesOf(center.certPem)).toEqual({ ku, kuCritical: true, eku: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth], ca: false });
    expect(usagesOf(point.certPem)).toEqual({ ku, kuCritical: true, eku: [x509.ExtendedKeyUsage.clientAuth], ca: false });
  });

  it("says whether a certificate carries its role's usages: a center's from before clientAuth does not", async () => {
    const old = await serverAuthOnlyCertificate(ca, 'center-old', NOW);
    expect(usagesOf(old.certPem).eku).toEqual([x509.ExtendedKeyUsage.serverAuth]);
    expect(hasRoleUsages(old.certPem, 'server')).toBe(false);
    expect(hasRoleUsages(center.certPem, 'server')).toBe(true);
    expect(hasRoleUsages(point.certPem, 'client')).toBe(true);
    expect(hasRoleUsages(center.certPem, 'client')).toBe(true);
    expect(hasRoleUsages(point.certPem, 'server')).toBe(false);
    expect(() => hasRoleUsages('not a certificate', 'server')).toThrow(PkiError);
  });

  it('carries key identifiers: its authority key id is the CA subject key id', () => {
    const caSki = new x509.X509Certificate(ca.certPem).getExtension(x509.SubjectKeyIdentifierExtension)!.keyId;
    const cert = new x509.X509Certificate(point.certPem);
    expect(cert.getExtension(x509.AuthorityKeyIdentifierExtension)!.keyId).toBe(caSki);
    expect(cert.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId).not.toBe(caSki);
  });

  it('comes with its own private key (PKCS#8) and lasts about two years', async () => {
    const key = await subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(point.keyPem), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']);
    const data = new TextEncoder().encode('hello');
    const sig = await subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, data);
    const pub = await new x509.X509Certificate(point.certPem).publicKey.export(crypto);
    expect(await subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, pub, sig, data)).toBe(true);
    expect(point.notAfter.getTime()).toBe(NOW.getTime() + PKI_VALIDITY.memberDays * DAY);
    expect(point.serial).toBe('0a0b0c');
    expect(certificateFacts(point.certPem)).toEqual({ serial: '0a0b0c', notAfter: point.notAfter, subject: 'CN=point-01, O=HubLink' });
  });

  it('never outlives its CA', async () => {
    const late = new Date(NOW.getTime() + (PKI_VALIDITY.caDays - 100) * DAY);
    const cert = await issueMemberCertificate(ca, { commonName: 'late', role: 'client', now: late });
    expect(cert.notAfter).toEqual(new x509.X509Certificate(ca.certPem).notAfter);
  });

  it('gets a unique positive random serial, and refuses a bad serial, name or role', async () => {
    const serials = new Set(Array.from({ length: 200 }, randomSerial));
    expect(serials.size).toBe(200);
    for (const s of serials) expect(s).toMatch(/^[0-7][0-9a-f]{31}$/);
    for (const s of serials) expect(s.startsWith('00')).toBe(false);
    for (const serial of ['', 'xyz', 'abc', '80', '00ff', 'f'.repeat(42)]) {
      await expect(issueMemberCertificate(ca, { commonName: 'm', role: 'client', serial, now: NOW }), serial).rejects.toThrow(PkiError);
    }
    for (const commonName of ['', 'x'.repeat(65), 'a\nb']) {
      await expect(issueMemberCertificate(ca, { commonName, role: 'client', now: NOW })).rejects.toThrow(/common name/);
    }
    await expect(issueMemberCertificate(ca, { commonName: 'm', role: 'admin' as 'client', now: NOW })).rejects.toThrow(/role/);
    await expect(issueMemberCertificate(ca, { commonName: 'm', role: 'client', now: new Date(NaN) })).rejects.toThrow(/now/);
  });
});

describe('the CRL', () => {
  it('lists the revoked serials, is signed by the CA and says when it is next updated', async () => {
    const revokedAt = new Date(NOW.getTime() + 5 * DAY);
    const at = new Date(NOW.getTime() + 6 * DAY);
    const pem = await createCrl(ca, [{ serial: point.serial, revokedAt }], at);
    expect(pem).toMatch(/^-----BEGIN X509 CRL-----\n[^]+\n-----END X509 CRL-----\n$/);
    const crl = new x509.X509Crl(pem);
    expect(await crl.verify({ publicKey: new x509.X509Certificate(ca.certPem) }, crypto)).toBe(true);
    expect(await crl.verify({ publicKey: new x509.X509Certificate((await createNetworkCa('N9', NOW)).certPem) }, crypto)).toBe(false);
    expect(crl.issuer).toBe(new x509.X509Certificate(ca.certPem).subject);
    expect(crl.entries.map((e) => [e.serialNumber, e.revocationDate])).toEqual([['0a0b0c', revokedAt]]);
    expect(crl.findRevoked(new x509.X509Certificate(point.certPem))).not.toBeNull();
    expect(crl.findRevoked(new x509.X509Certificate(center.certPem))).toBeNull();
    expect(crl.thisUpdate).toEqual(at);
    expect(crl.nextUpdate).toEqual(new Date(at.getTime() + PKI_VALIDITY.crlDays * DAY));
    expect(crlNeedsRefresh(pem, at)).toBe(false);
    expect(crlNeedsRefresh(pem, new Date(at.getTime() + (PKI_VALIDITY.crlDays - 30) * DAY))).toBe(true);
  });

  it('may be empty', async () => {
    const crl = new x509.X509Crl(await createCrl(ca, [], NOW));
    expect(crl.entries).toEqual([]);
    expect(await crl.verify({ publicKey: new x509.X509Certificate(ca.certPem) }, crypto)).toBe(true);
  });
});

describe('needsRenewal', () => {
  it('turns true when the end is within the window, and stays true after it', () => {
    const end = point.notAfter.getTime();
    expect(needsRenewal(point.certPem, NOW)).toBe(false);
    expect(needsRenewal(point.certPem, new Date(end - 31 * DAY))).toBe(false);
    expect(needsRenewal(point.certPem, new Date(end - 30 * DAY))).toBe(true);
    expect(needsRenewal(point.certPem, new Date(end + DAY))).toBe(true);
    expect(needsRenewal(point.certPem, new Date(end - 60 * DAY), 61)).toBe(true);
    expect(needsRenewal(point.certPem, new Date(end - 60 * DAY), 59)).toBe(false);
  });
});

// The same material through OpenSSL, which OpenVPN uses to check it. Skipped only where there is no openssl.
const openssl = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v openssl'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
})();
if (!openssl) console.warn('pki.test.ts: no openssl binary on this machine (command -v openssl found none); the OpenSSL checks are skipped');

describe.skipIf(!openssl)('OpenSSL reads the same material', () => {
  const run = promisify(execFile);
  let dir: string;
  const file = (name: string, text: string) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };
  /** openssl's answer, stdout and stderr together, whether it succeeded or not. */
  const ssl = async (...args: string[]) => {
    try {
      const { stdout, stderr } = await run(openssl!, args);
      return { ok: true, out: stdout + stderr };
    } catch (e) {
      const err = e as { stdout?: string; stderr?: string };
      return { ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
    }
  };
  const attime = String(Math.floor(NOW.getTime() / 1000) + 60);

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-pki-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('verifies each member certificate against the CA for its purpose', async () => {
    const caFile = file('ca.pem', ca.certPem);
    const server = await ssl('verify', '-CAfile', caFile, '-attime', attime, '-purpose', 'sslserver', file('center.pem', center.certPem));
    expect(server.out).toContain('OK');
    expect(server.ok).toBe(true);
    const client = await ssl('verify', '-CAfile', caFile, '-attime', attime, '-purpose', 'sslclient', file('point.pem', point.certPem));
    expect(client.ok).toBe(true);
    // a center dials other centers as a TLS client; one issued before clientAuth could not
    expect((await ssl('verify', '-CAfile', caFile, '-attime', attime, '-purpose', 'sslclient', file('center.pem', center.certPem))).ok).toBe(true);
    const old = await ssl('verify', '-CAfile', caFile, '-attime', attime, '-purpose', 'sslclient', file('old.pem', (await serverAuthOnlyCertificate(ca, 'center-old', NOW)).certPem));
    expect(old.ok).toBe(false);
    expect(old.out).toMatch(/unsuitable certificate purpose/);
    // the EKU keeps a client certificate from acting as a server
    expect((await ssl('verify', '-CAfile', caFile, '-attime', attime, '-purpose', 'sslserver', file('point.pem', point.certPem))).ok).toBe(false);
    const other = await createNetworkCa('N1002', NOW);
    expect((await ssl('verify', '-CAfile', file('other.pem', other.certPem), '-attime', attime, file('center.pem', center.certPem))).ok).toBe(false);
  });

  it('prints the key usages OpenVPN checks', async () => {
    const text = await ssl('x509', '-noout', '-text', '-in', file('center.pem', center.certPem));
    expect(text.out).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Key Agreement/);
    expect(text.out).toMatch(/X509v3 Extended Key Usage:\s+TLS Web Server Authentication, TLS Web Client Authentication\n/);
    expect(text.out).toMatch(/ASN1 OID: prime256v1/);
    const key = await ssl('pkey', '-noout', '-in', file('center.key', center.keyPem));
    expect(key.ok).toBe(true);
  });

  it('reads the CRL, checks its signature and refuses the revoked certificate with it', async () => {
    const crlPem = await createCrl(ca, [{ serial: point.serial, revokedAt: NOW }], NOW);
    const caFile = file('ca.pem', ca.certPem);
    const crlFile = file('crl.pem', crlPem);
    const text = await ssl('crl', '-noout', '-text', '-in', crlFile);
    expect(text.ok).toBe(true);
    expect(text.out).toMatch(/Serial Number: 0A0B0C/);
    expect(text.out).toMatch(/Next Update:/);
    expect(text.out).toMatch(/X509v3 CRL Number:/);
    expect((await ssl('crl', '-noout', '-in', crlFile, '-CAfile', caFile)).out).toMatch(/verify OK/);
    const revoked = await ssl('verify', '-crl_check', '-CAfile', caFile, '-CRLfile', crlFile, '-attime', attime, file('point.pem', point.certPem));
    expect(revoked.ok).toBe(false);
    expect(revoked.out).toMatch(/certificate revoked/);
    const kept = await ssl('verify', '-crl_check', '-CAfile', caFile, '-CRLfile', crlFile, '-attime', attime, file('center.pem', center.certPem));
    expect(kept.ok).toBe(true);
    // past its nextUpdate the CRL fails every peer, revoked or not: why the renewal job rebuilds it in time
    const pastNext = String(Math.floor(NOW.getTime() / 1000) + (PKI_VALIDITY.crlDays + 1) * 86400);
    const stale = await ssl('verify', '-crl_check', '-CAfile', caFile, '-CRLfile', crlFile, '-attime', pastNext, file('center.pem', center.certPem));
    expect(stale.ok).toBe(false);
    expect(stale.out).toMatch(/CRL has expired/);
  });

  it('completes a mutual TLS handshake between a center and a point or another center, and the center refuses a revoked point', async () => {
    const crlPem = await createCrl(ca, [{ serial: point.serial, revokedAt: NOW }], NOW);
    const fresh = await issueMemberCertificate(ca, { commonName: 'point-02', role: 'client', now: NOW });
    const twin = await issueMemberCertificate(ca, { commonName: 'center-02', role: 'server', now: NOW });
    // Both ends judge validity at NOW (-attime), not by the clock: a CRL past its nextUpdate fails every peer.
    const caWithCrl = file('ca-crl.pem', ca.certPem + crlPem);
    const server = spawn(openssl!, ['s_server', '-accept', '127.0.0.1:0', '-naccept', '3', '-cert', file('center.pem', center.certPem), '-key', file('center.key', center.keyPem), '-CAfile', caWithCrl, '-Verify', '2', '-verify_return_error', '-crl_check', '-purpose', 'sslclient', '-attime', attime]);
    let serverOut = '';
    server.stdout.on('data', (d: Buffer) => (serverOut += d.toString()));
    server.stderr.on('data', (d: Buffer) => (serverOut += d.toString()));
    const exited = new Promise<void>((resolve) => server.on('exit', () => resolve()));
    try {
      await expect.poll(() => /ACCEPT 127\.0\.0\.1:(\d+)/.test(serverOut)).toBe(true);
      const address = `127.0.0.1:${/ACCEPT 127\.0\.0\.1:(\d+)/.exec(serverOut)![1]}`;
      const client = (cert: KeyAndCertificate, name: string, ...extra: string[]) =>
        new Promise<string>((resolve) => {
          const c = spawn(openssl!, ['s_client', '-connect', address, '-CAfile', file('ca.pem', ca.certPem), '-verify_return_error', '-attime', attime, '-purpose', 'sslserver', '-cert', file(`${name}.pem`, cert.certPem), '-key', file(`${name}.key`, cert.keyPem), ...extra]);
          let out = '';
          c.stdout.on('data', (d: Buffer) => (out += d.toString()));
          c.stderr.on('data', (d: Buffer) => (out += d.toString()));
          c.on('exit', () => resolve(out));
          c.stdin.end('Q\n');
        });
      const good = await client(fresh, 'point-02');
      expect(good).toMatch(/Verify return code: 0 \(ok\)/);
      // a center as the client end of a center-to-center link
      expect(await client(twin, 'center-02')).toMatch(/Verify return code: 0 \(ok\)/);
      // TLS 1.2, so the client hears the refusal within the handshake
      const revoked = await client(point, 'point-01', '-tls1_2');
      expect(revoked).toMatch(/alert/);
      await exited;
      expect(serverOut.match(/verify error:num=\d+:[^\n]*/g)).toEqual(['verify error:num=23:certificate revoked']);
    } finally {
      server.kill();
    }
  });
});
