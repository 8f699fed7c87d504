// @peculiar/x509 resolves its parts with tsyringe, which needs a Reflect metadata polyfill loaded before
// it; this import comes first so it runs first. Import x509 only through this file.
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { randomBytes, webcrypto } from 'node:crypto';

/**
 * The per-network PKI as pure functions over PEM text (no database, no clock: `now` comes in).
 * Each network has its own CA; every member of the network gets a certificate from it (centers are
 * OpenVPN servers, points and software members clients); a member that leaves is revoked in the CRL.
 * Keys are EC P-256 with ECDSA-SHA256; private keys come back as PKCS#8 PEM for the caller to seal
 * (core/secretBox.ts) before they are stored.
 */

// Node 20's WebCrypto, by name, so nothing depends on a global `crypto` (Node 22's) being there.
// (The server compiles without the DOM library, so WebCrypto's types are node:crypto's.)
// (ReturnType of get, not Parameters of set: set's last overload takes a name first, which is what
// Parameters<> picks when the DOM library is in, as in the e2e project that compiles this file too.)
type X509Crypto = ReturnType<typeof x509.cryptoProvider.get>;
const crypto = webcrypto as unknown as X509Crypto;
const subtle = webcrypto.subtle;
x509.cryptoProvider.set(crypto);

const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;
const SIGNING = { ...EC_KEY, hash: 'SHA-256' } as const;
const DAY_MS = 24 * 3600 * 1000;

export const PKI_VALIDITY = {
  /** A network's CA: about ten years. */
  caDays: 3650,
  /** A member certificate: about two years, renewed by a job well before. */
  memberDays: 730,
  /** A CRL is valid this long; it is rebuilt on every revocation and refreshed by the job before then. */
  crlDays: 180,
  /** notBefore lies this far before `now`, so a device whose clock is a little behind accepts a new certificate. */
  backdateMs: 3600 * 1000,
  /** needsRenewal's default window. */
  renewalWindowDays: 30,
} as const;

/** An X.520 common name holds at most 64 characters. */
const COMMON_NAME_MAX = 64;

export interface KeyAndCertificate {
  /** The certificate, PEM. */
  certPem: string;
  /** Its private key, PKCS#8 PEM: seal it before it is stored. */
  keyPem: string;
  /** The serial number as the certificate carries it: lowercase hex, positive, without a needless leading 00. */
  serial: string;
  notAfter: Date;
}

/** A network's CA as the functions below take it. */
export interface CaMaterial {
  certPem: string;
  keyPem: string;
}

export type MemberRole = 'server' | 'client';

export class PkiError extends Error {}

/** A random positive serial of 16 bytes (first byte 01–7f, so it is encoded and read back unchanged). */
export function randomSerial(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) || 0x01;
  return bytes.toString('hex');
}

/** A caller's serial: hex, positive, 1 to 20 bytes (RFC 5280 §4.1.2.2), no leading zero byte. */
function checkSerial(serial: string): string {
  const s = serial.toLowerCase();
  if (!/^([0-9a-f]{2}){1,20}$/.test(s) || s.startsWith('00') || parseInt(s[0]!, 16) >= 8) {
    throw new PkiError(`bad serial number '${serial.slice(0, 48)}': hex of 1 to 20 bytes, positive, no leading 00`);
  }
  return s;
}

function checkNow(now: Date): void {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) throw new PkiError('now must be a valid date');
}

/** PEM as a text file: ending in a newline, so PEM blocks can be joined into one file (a CA file with its CRL). */
const pemText = (pem: string) => (pem.endsWith('\n') ? pem : `${pem}\n`);
const hasControlCharacter = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
const addDays = (d: Date, days: number) => new Date(d.getTime() + days * DAY_MS);
const backdated = (now: Date) => new Date(now.getTime() - PKI_VALIDITY.backdateMs);

type CryptoKey = webcrypto.CryptoKey;

async function newKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return pemText(x509.PemConverter.encode(await subtle.exportKey('pkcs8', key), x509.PemConverter.PrivateKeyTag));
}

async function importPrivateKey(pem: string): Promise<CryptoKey> {
  let der: ArrayBuffer;
  try {
    der = x509.PemConverter.decodeFirst(pem);
  } catch {
    throw new PkiError('the CA private key is not PEM');
  }
  return subtle.importKey('pkcs8', der, EC_KEY, false, ['sign']);
}

function parseCertificate(pem: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(pem);
  } catch {
    throw new PkiError('not a PEM certificate');
  }
}

/** The key identifier of a CA, from its subjectKeyIdentifier (every CA made here has one). */
function caKeyId(ca: x509.X509Certificate): string {
  const ski = ca.getExtension(x509.SubjectKeyIdentifierExtension);
  if (!ski) throw new PkiError('the CA certificate has no subjectKeyIdentifier');
  return ski.keyId;
}

function result(cert: x509.X509Certificate, keyPem: string): KeyAndCertificate {
  return { certPem: pemText(cert.toString('pem')), keyPem, serial: cert.serialNumber.toLowerCase(), notAfter: cert.notAfter };
}

/**
 * A new CA for one network: self-signed, basicConstraints CA (critical, path length 0: it signs only
 * member certificates), keyUsage keyCertSign + cRLSign (critical), about ten years.
 */
export async function createNetworkCa(networkNumber: string, now: Date, serial = randomSerial()): Promise<KeyAndCertificate> {
  checkNow(now);
  if (!networkNumber || networkNumber.length > COMMON_NAME_MAX - 20) throw new PkiError('bad network number for a CA name');
  const keys = await newKeyPair();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: checkSerial(serial),
    name: [{ CN: [`HubLink network ${networkNumber} CA`] }, { O: ['HubLink'] }],
    notBefore: backdated(now),
    notAfter: addDays(now, PKI_VALIDITY.caDays),
    signingAlgorithm: SIGNING,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
    ],
  });
  return result(cert, await privateKeyPem(keys.privateKey));
}

/**
 * The extended key usages of each role. A center serves points (serverAuth) and dials other centers as
 * a TLS client (clientAuth: OpenSSL refuses a client certificate without it). A point is a client only,
 * so `remote-cert-tls server` never accepts a point where a center is expected.
 */
const ROLE_USAGES: Readonly<Record<MemberRole, readonly x509.ExtendedKeyUsage[]>> = {
  server: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
  client: [x509.ExtendedKeyUsage.clientAuth],
};

export interface MemberCertificateRequest {
  /** The member's name (its router_name); OpenVPN sees it as the peer's common name. */
  commonName: string;
  /** server: a center (extKeyUsage serverAuth and clientAuth); client: a point or software member (clientAuth). */
  role: MemberRole;
  /** Hex; a random one when not given. */
  serial?: string;
  now: Date;
}

/**
 * A member's certificate signed by the network's CA: a new P-256 key, keyUsage digitalSignature +
 * keyAgreement (critical; what OpenVPN's remote-cert-tls expects of an EC certificate), extKeyUsage
 * of its role (ROLE_USAGES), basicConstraints CA:false, subject and authority key identifiers, about two
 * years (never past the CA's own end).
 */
export async function issueMemberCertificate(ca: CaMaterial, req: MemberCertificateRequest): Promise<KeyAndCertificate> {
  checkNow(req.now);
  const cn = req.commonName;
  if (!cn || cn.length > COMMON_NAME_MAX || hasControlCharacter(cn)) {
    throw new PkiError(`bad common name: 1 to ${COMMON_NAME_MAX} characters without control characters`);
  }
  if (req.role !== 'server' && req.role !== 'client') throw new PkiError(`bad role '${String(req.role)}'`);
  const caCert = parseCertificate(ca.certPem);
  const caKey = await importPrivateKey(ca.keyPem);
  const keys = await newKeyPair();
  const memberEnd = addDays(req.now, PKI_VALIDITY.memberDays);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: checkSerial(req.serial ?? randomSerial()),
    subject: [{ CN: [cn] }, { O: ['HubLink'] }],
    issuer: caCert.subjectName,
    notBefore: backdated(req.now),
    notAfter: memberEnd < caCert.notAfter ? memberEnd : caCert.notAfter,
    signingAlgorithm: SIGNING,
    publicKey: keys.publicKey,
    signingKey: caKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([...ROLE_USAGES[req.role]], false),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
      new x509.AuthorityKeyIdentifierExtension(caKeyId(caCert), false),
    ],
  });
  return result(cert, await privateKeyPem(keys.privateKey));
}

export interface RevokedEntry {
  /** Hex serial of the revoked certificate. */
  serial: string;
  revokedAt: Date;
}

/** A DER INTEGER of a non-negative safe integer (the CRL number). */
function derInteger(n: number): Uint8Array<ArrayBuffer> {
  let hex = n.toString(16);
  if (hex.length % 2) hex = `0${hex}`;
  if (parseInt(hex[0]!, 16) >= 8) hex = `00${hex}`;
  const body = Buffer.from(hex, 'hex');
  return Uint8Array.from([0x02, body.length, ...body]);
}

const CRL_NUMBER_OID = '2.5.29.20';

/**
 * The network's CRL, signed by its CA: every revoked serial, thisUpdate now, nextUpdate in crlDays, an
 * authority key identifier and a CRL number that grows with time (milliseconds of `now`), so a newer
 * CRL always has a larger number. OpenVPN refuses every peer once its CRL is past nextUpdate: the
 * renewal job rebuilds it well before (see crlNeedsRefresh).
 */
export async function createCrl(ca: CaMaterial, revoked: readonly RevokedEntry[], now: Date): Promise<string> {
  checkNow(now);
  const caCert = parseCertificate(ca.certPem);
  const crl = await x509.X509CrlGenerator.create(
    {
      issuer: caCert.subjectName,
      thisUpdate: now,
      nextUpdate: addDays(now, PKI_VALIDITY.crlDays),
      signingAlgorithm: SIGNING,
      signingKey: await importPrivateKey(ca.keyPem),
      extensions: [new x509.AuthorityKeyIdentifierExtension(caKeyId(caCert), false), new x509.Extension(CRL_NUMBER_OID, false, derInteger(now.getTime()))],
      entries: revoked.map((r) => {
        checkNow(r.revokedAt);
        return { serialNumber: checkSerial(r.serial), revocationDate: r.revokedAt, reason: x509.X509CrlReason.cessationOfOperation };
      }),
    },
    crypto,
  );
  // RFC 7468's label is 'X509 CRL'; @peculiar/x509 writes 'CRL', which OpenSSL (and so OpenVPN's
  // crl-verify) cannot read.
  return pemText(x509.PemConverter.encode(crl.rawData, CRL_PEM_LABEL));
}

const CRL_PEM_LABEL = 'X509 CRL';

/** Whether a certificate ends within windowDays of now (or has ended) and should be replaced. */
export function needsRenewal(certPem: string, now: Date, windowDays: number = PKI_VALIDITY.renewalWindowDays): boolean {
  checkNow(now);
  return parseCertificate(certPem).notAfter.getTime() - now.getTime() <= windowDays * DAY_MS;
}

/** Whether a CRL's nextUpdate is within windowDays of now (or past), so it should be rebuilt. */
export function crlNeedsRefresh(crlPem: string, now: Date, windowDays: number = PKI_VALIDITY.renewalWindowDays): boolean {
  checkNow(now);
  const next = new x509.X509Crl(crlPem).nextUpdate;
  return !next || next.getTime() - now.getTime() <= windowDays * DAY_MS;
}

/** Whether a certificate carries every extended key usage its role is issued with now (an older one may not). */
export function hasRoleUsages(certPem: string, role: MemberRole): boolean {
  const usages: readonly x509.ExtendedKeyUsageType[] = parseCertificate(certPem).getExtension(x509.ExtendedKeyUsageExtension)?.usages ?? [];
  return ROLE_USAGES[role].every((u) => usages.includes(u));
}

/** The serial (lowercase hex) and end of a PEM certificate. */
export function certificateFacts(certPem: string): { serial: string; notAfter: Date; subject: string } {
  const cert = parseCertificate(certPem);
  return { serial: cert.serialNumber.toLowerCase(), notAfter: cert.notAfter, subject: cert.subject };
}
