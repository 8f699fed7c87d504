import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, requireDataplane, type NsProcess } from '../../test/netns';
import { until } from '../../test/until';
import { createCrl, createNetworkCa, issueMemberCertificate, type KeyAndCertificate } from './pki';

/*
 * The data plane for real: one center and two points as OpenVPN processes in their own network
 * namespaces, with certificates from pki.ts. The configurations are written by hand, one function per
 * role, until the compiler renders them (then these functions give way to its output).
 * Needs root, /dev/net/tun and openvpn: without them the file fails, naming what is missing.
 */

const PORT = 1194;
const CIPHERS = 'AES-256-GCM:AES-128-GCM:CHACHA20-POLY1305';
/** The network's VPN subnet; the center takes its first address. */
const VPN = { network: '100.64.10.0', mask: '255.255.255.0', center: '100.64.10.1' };
/** The LAN behind point 2 (an interface in its namespace). */
const LAN2 = { network: '10.20.0.0', mask: '255.255.255.0', address: '10.20.0.1', cidr: '10.20.0.1/24' };

interface Lan {
  network: string;
  mask: string;
}

/** The center (OpenVPN server): the VPN subnet, the points' LANs routed to it and pushed to every point. */
function centerConfig(c: { port: number; vpn: Lan; lans: Lan[] }): string {
  return [
    'dev tun',
    'proto udp',
    `port ${c.port}`,
    'topology subnet',
    `server ${c.vpn.network} ${c.vpn.mask}`,
    'ca ca.crt',
    'cert member.crt',
    'key member.key',
    'dh none',
    'crl-verify crl.pem',
    'remote-cert-tls client',
    `data-ciphers ${CIPHERS}`,
    'client-config-dir ccd',
    ...c.lans.flatMap((l) => [`route ${l.network} ${l.mask}`, `push "route ${l.network} ${l.mask}"`]),
    'keepalive 10 60',
    'verb 3',
    '',
  ].join('\n');
}

/** The center's file for one point (client-config-dir, named by its common name): the LANs behind it. */
function centerPointConfig(lans: Lan[]): string {
  // iroute sends the LAN's packets to this point; the point is not told to route its own LAN to the center.
  return [...lans.flatMap((l) => [`iroute ${l.network} ${l.mask}`, `push-remove "route ${l.network} ${l.mask}"`]), ''].join('\n');
}

/** A point (OpenVPN client) dialing its center. */
function pointConfig(c: { remote: string; port: number }): string {
  return [
    'client',
    'dev tun',
    'proto udp',
    `remote ${c.remote} ${c.port}`,
    'nobind',
    'connect-retry 1',
    'ca ca.crt',
    'cert member.crt',
    'key member.key',
    'crl-verify crl.pem',
    'remote-cert-tls server',
    `data-ciphers ${CIPHERS}`,
    'verb 3',
    '',
  ].join('\n');
}

const READY = /Initialization Sequence Completed/;

describe('the data plane: a center and two points in network namespaces', () => {
  const lab = new NetLab('hldp');
  let dir: string;
  let ns: { center: string; p1: string; p2: string; revoked: string };
  let center: NsProcess;
  let revokedCert: KeyAndCertificate;
  const members: Record<string, KeyAndCertificate> = {};

  /** A member's configuration directory: the CA, its certificate and key, the CRL and its config. */
  function memberDir(name: string, cert: KeyAndCertificate, caPem: string, crlPem: string, config: string): string {
    const d = path.join(dir, name);
    fs.mkdirSync(d, { recursive: true });
    fs.writeFileSync(path.join(d, 'ca.crt'), caPem);
    fs.writeFileSync(path.join(d, 'member.crt'), cert.certPem);
    fs.writeFileSync(path.join(d, 'member.key'), cert.keyPem, { mode: 0o600 });
    fs.writeFileSync(path.join(d, 'crl.pem'), crlPem);
    fs.writeFileSync(path.join(d, 'member.conf'), config);
    return d;
  }

  const openvpn = (namespace: string, name: string, d: string) => lab.start(namespace, name, 'openvpn', ['--config', 'member.conf'], d);

  beforeAll(async () => {
    await requireDataplane();
    await lab.removeLeftovers();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-dataplane-'));

    // OpenVPN judges dates by the clock, so the material is made at the clock's time.
    const now = new Date();
    const ca = await createNetworkCa('NDATAPLANE1', now);
    members.center = await issueMemberCertificate(ca, { commonName: 'center-1', role: 'server', now });
    members.p1 = await issueMemberCertificate(ca, { commonName: 'point-1', role: 'client', now });
    members.p2 = await issueMemberCertificate(ca, { commonName: 'point-2', role: 'client', now });
    revokedCert = await issueMemberCertificate(ca, { commonName: 'point-3', role: 'client', now });
    const crl = await createCrl(ca, [{ serial: revokedCert.serial, revokedAt: now }], now);

    ns = { center: await lab.namespace('center'), p1: await lab.namespace('p1'), p2: await lab.namespace('p2'), revoked: await lab.namespace('p3') };
    await lab.link(ns.center, '192.0.2.1/30', ns.p1, '192.0.2.2/30');
    await lab.link(ns.center, '192.0.2.5/30', ns.p2, '192.0.2.6/30');
    await lab.link(ns.center, '192.0.2.9/30', ns.revoked, '192.0.2.10/30');
    await lab.lan(ns.p2, 'lan0', LAN2.cidr);
    // The center routes between its points through its kernel (no client-to-client).
    await lab.exec(ns.center, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);

    const centerDir = memberDir('center', members.center, ca.certPem, crl, centerConfig({ port: PORT, vpn: VPN, lans: [LAN2] }));
    fs.mkdirSync(path.join(centerDir, 'ccd'));
    fs.writeFileSync(path.join(centerDir, 'ccd', 'point-2'), centerPointConfig([LAN2]));
    center = openvpn(ns.center, 'center', centerDir);
    await center.waitFor(READY);

    const p1 = openvpn(ns.p1, 'point 1', memberDir('p1', members.p1, ca.certPem, crl, pointConfig({ remote: '192.0.2.1', port: PORT })));
    const p2 = openvpn(ns.p2, 'point 2', memberDir('p2', members.p2, ca.certPem, crl, pointConfig({ remote: '192.0.2.5', port: PORT })));
    await Promise.all([p1.waitFor(READY), p2.waitFor(READY)]);
    memberDir('p3', revokedCert, ca.certPem, crl, pointConfig({ remote: '192.0.2.9', port: PORT }));
  });

  afterAll(async () => {
    await lab.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a point reaches the center's VPN address over an AEAD cipher of the list", async () => {
    await lab.waitForPing(ns.p1, VPN.center);
    expect(center.output).toMatch(/SENT CONTROL \[point-1\]: 'PUSH_REPLY,.*cipher AES-256-GCM/);
  });

  it("the second point's LAN is reachable from the first point across the center", async () => {
    // Only the tunnel leads there: point 1's one link ends at the center, which has no such address.
    expect(await lab.exec(ns.p1, 'ip', ['route', 'get', LAN2.address])).toMatch(/dev tun/);
    await lab.waitForPing(ns.p1, LAN2.address);
    expect(await lab.exec(ns.center, 'ip', ['-o', 'address'])).not.toContain(LAN2.address);
  });

  it('the center refuses a point whose certificate is revoked in its CRL', async () => {
    const refused = openvpn(ns.revoked, 'point 3 (revoked)', path.join(dir, 'p3'));
    await until(() => {
      if (READY.test(refused.output)) throw new Error(`the revoked point connected:\n${refused.tail()}`);
      return /VERIFY ERROR: depth=0, error=certificate revoked.*CN=point-3/.test(center.output);
    }, "the center's refusal of point-3");
    await refused.stop();
    expect(refused.output).not.toMatch(READY);
    expect(await lab.pings(ns.revoked, VPN.center)).toBe(false);
  });
});
