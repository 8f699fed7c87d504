import { randomBytes } from 'node:crypto';

/**
 * A network's OpenVPN tls-crypt key: 2048 random bits in OpenVPN's "Static key V1" file format, as
 * `openvpn --genkey tls-crypt` writes it (without its comment lines). Every member of the network gets
 * the same key; it encrypts and authenticates the TLS control channel, so a packet without it is
 * dropped before any TLS work.
 */

/** The file the agent writes beside the OpenVPN files, and the name a rendered config uses for it. */
export const TLS_CRYPT_FILE = 'tls-crypt.key';

const KEY_BYTES = 256;
const BYTES_PER_LINE = 16;
const BEGIN = '-----BEGIN OpenVPN Static key V1-----';
const END = '-----END OpenVPN Static key V1-----';

export function createTlsCryptKey(): string {
  const hex = randomBytes(KEY_BYTES).toString('hex');
  const lines = hex.match(new RegExp(`.{${BYTES_PER_LINE * 2}}`, 'g'))!;
  return [BEGIN, ...lines, END, ''].join('\n');
}
