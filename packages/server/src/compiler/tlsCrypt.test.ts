import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkCa, issueMemberCertificate } from './pki';
import { createTlsCryptKey } from './tlsCrypt';

const NOW = new Date('2026-03-01T08:00:00Z');

describe('a tls-crypt key', () => {
  it("is 2048 random bits in OpenVPN's static key V1 file format", () => {
    const key = createTlsCryptKey();
    const lines = key.split('\n');
    expect(lines[0]).toBe('-----BEGIN OpenVPN Static key V1-----');
    expect(lines.slice(1, 17).every((l) => /^[0-9a-f]{32}$/.test(l))).toBe(true);
    expect(lines.slice(17)).toEqual(['-----END OpenVPN Static key V1-----', '']);
    expect(createTlsCryptKey()).not.toBe(key);
  });
});

/**
 * What openvpn says when it starts as a client with this tls-crypt key. It reads the key right after the
 * certificates and then fails at once binding a TEST-NET address, so nothing reaches the network.
 */
function openvpnWith(dir: string, keyText: string): Promise<string> {
  fs.writeFileSync(path.join(dir, 'tls-crypt.key'), keyText);
  const args = ['--client', '--dev', 'null', '--proto', 'udp', '--remote', '127.0.0.1', '1194', '--local', '192.0.2.1', '--lport', '1194'];
  args.push('--ca', 'ca.crt', '--cert', 'member.crt', '--key', 'member.key', '--tls-crypt', 'tls-crypt.key', '--verb', '4');
  return new Promise((resolve, reject) => {
    execFile('openvpn', args, { cwd: dir, timeout: 10_000 }, (err, stdout, stderr) => {
      if ((err as NodeJS.ErrnoException | null)?.code === 'ENOENT') reject(new Error('this test needs openvpn (Debian: apt-get install -y openvpn)'));
      else resolve(stdout + stderr);
    });
  });
}

describe('OpenVPN reads the key', () => {
  let dir: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-tls-crypt-'));
    const ca = await createNetworkCa('N1001', NOW);
    const point = await issueMemberCertificate(ca, { commonName: 'point-01', role: 'client', now: NOW });
    fs.writeFileSync(path.join(dir, 'ca.crt'), ca.certPem);
    fs.writeFileSync(path.join(dir, 'member.crt'), point.certPem);
    fs.writeFileSync(path.join(dir, 'member.key'), point.keyPem, { mode: 0o600 });
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("has the layout of openvpn's own, without its comment lines", async () => {
    const file = path.join(dir, 'genkey.key');
    await new Promise<void>((resolve, reject) => execFile('openvpn', ['--genkey', 'tls-crypt', file], (err) => (err ? reject(err) : resolve())));
    const shape = (text: string) => text.replace(/[0-9a-f]/g, 'x');
    const theirs = fs.readFileSync(file, 'utf8').split('\n').filter((l) => !l.startsWith('#')).join('\n');
    expect(shape(createTlsCryptKey())).toBe(shape(theirs));
  });

  it('as a tls-crypt key, and refuses one that is cut short', async () => {
    const good = await openvpnWith(dir, createTlsCryptKey());
    expect(good).toMatch(/Outgoing Control Channel Encryption: Cipher 'AES-256-CTR' initialized with 256 bit key/);
    expect(good).not.toMatch(/Static Key format|key file/);

    // half the key: tls-crypt needs both 1024-bit halves
    const lines = createTlsCryptKey().split('\n');
    const short = await openvpnWith(dir, [...lines.slice(0, 9), ...lines.slice(17)].join('\n'));
    expect(short).toMatch(/does not have OpenVPN Static Key format/);
    expect(short).not.toMatch(/Control Channel Encryption/);
  });
});
