import 'reflect-metadata';
import * as x509 from '@peculiar/x509';
import { webcrypto } from 'node:crypto';
import { PKI_VALIDITY, randomSerial, type CaMaterial, type KeyAndCertificate } from '../src/compiler/pki';

const crypto = webcrypto as unknown as Parameters<typeof x509.cryptoProvider.set>[0];
const EC_KEY = { name: 'ECDSA', namedCurve: 'P-256' } as const;

/**
 * A center's certificate as releases before issue 29 issued it: extKeyUsage serverAuth only, otherwise
 * as compiler/pki.ts makes them. Tests of the healing of stored certificates need one.
 */
export async function serverAuthOnlyCertificate(ca: CaMaterial, commonName: string, now: Date): Promise<KeyAndCertificate> {
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKey = await webcrypto.subtle.importKey('pkcs8', x509.PemConverter.decodeFirst(ca.keyPem), EC_KEY, false, ['sign']);
  const keys = await webcrypto.subtle.generateKey(EC_KEY, true, ['sign', 'verify']);
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: randomSerial(),
      subject: [{ CN: [commonName] }, { O: ['HubLink'] }],
      issuer: caCert.subjectName,
      notBefore: new Date(now.getTime() - PKI_VALIDITY.backdateMs),
      notAfter: new Date(now.getTime() + PKI_VALIDITY.memberDays * 86400_000),
      signingAlgorithm: { ...EC_KEY, hash: 'SHA-256' },
      publicKey: keys.publicKey,
      signingKey: caKey,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
        new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth], false),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey, false, crypto),
        new x509.AuthorityKeyIdentifierExtension(caCert.getExtension(x509.SubjectKeyIdentifierExtension)!.keyId, false),
      ],
    },
    crypto,
  );
  const keyPem = x509.PemConverter.encode(await webcrypto.subtle.exportKey('pkcs8', keys.privateKey), x509.PemConverter.PrivateKeyTag);
  return { certPem: `${cert.toString('pem')}\n`, keyPem: `${keyPem}\n`, serial: cert.serialNumber.toLowerCase(), notAfter: cert.notAfter };
}
