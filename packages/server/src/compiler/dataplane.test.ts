import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NetLab, requireDataplane, type NsProcess } from '../../test/netns';
import { until } from '../../test/until';
import { compileNetwork } from './compile';
import { networkOf } from './fixtures';
import type { CenterConfig, MemberConfig } from './model';
import { createCrl, createNetworkCa, issueMemberCertificate, type KeyAndCertificate } from './pki';

/*
 * The data plane for real: the compiler's OpenVPN files for one center and three points, run by
 * OpenVPN in their own network namespaces with certificates from pki.ts. Point 2 has a LAN (a route
 * prefix of the network); point 3's certificate is revoked in the CRL the center checks.
 * Needs root, /dev/net/tun and openvpn: without them the file fails, naming what is missing.
 */

/** The center's one public address (its link to point 1); the other points route to it over their links. */
const CENTER_HOST = '192.0.2.1';
/** The LAN behind point 2 (an interface in its namespace), a route prefix of the network. */
const LAN2 = { network: '10.20.0.0', mask: 24, address: '10.20.0.1', cidr: '10.20.0.1/24' };

const NETWORK = networkOf({
  network_number: 'NDATAPLANE1',
  dns: ['192.0.2.53'],
  prefixes: [{ router_name: 'point-2', ip: LAN2.network, mask: LAN2.mask, permission: 'permit', ge: null, le: null }],
  members: [
    { router_name: 'center-1', member_type: 'center', public_host: CENTER_HOST },
    { router_name: 'point-1', member_type: 'point' },
    { router_name: 'point-2', member_type: 'point' },
    { router_name: 'point-3', member_type: 'point' },
  ],
});

const READY = /Initialization Sequence Completed/;

describe('the data plane: a center and two points in network namespaces', () => {
  const lab = new NetLab('hldp');
  let dir: string;
  let ns: { center: string; p1: string; p2: string; revoked: string };
  /** The center's VPN address on its hardware server. */
  let centerVpn: string;
  let center: NsProcess;
  let revokedCert: KeyAndCertificate;
  const members: Record<string, KeyAndCertificate> = {};

  /** A member's directory as its agent would lay it out: the compiled files beside the CA, its certificate and key, and the CRL. */
  function memberDir(config: MemberConfig, cert: KeyAndCertificate, caPem: string, crlPem: string): string {
    const d = path.join(dir, config.router_name);
    for (const [file, text] of Object.entries(config.openvpn)) {
      fs.mkdirSync(path.dirname(path.join(d, file)), { recursive: true });
      fs.writeFileSync(path.join(d, file), text);
    }
    fs.writeFileSync(path.join(d, 'ca.crt'), caPem);
    fs.writeFileSync(path.join(d, 'member.crt'), cert.certPem);
    fs.writeFileSync(path.join(d, 'member.key'), cert.keyPem, { mode: 0o600 });
    fs.writeFileSync(path.join(d, 'crl.pem'), crlPem);
    return d;
  }

  /** The one `.conf` a member runs here: the center's hardware server, a point's client to the center. */
  const openvpn = (namespace: string, name: string, d: string, conf: string) => lab.start(namespace, name, 'openvpn', ['--config', conf], d);

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

    const compiled = compileNetwork(NETWORK);
    const config = (name: string) => compiled.members.find((m) => m.router_name === name)!;
    const hardware = (config('center-1').json as CenterConfig).services.find((x) => x.service === 'router')!;
    centerVpn = hardware.address;

    ns = { center: await lab.namespace('center'), p1: await lab.namespace('p1'), p2: await lab.namespace('p2'), revoked: await lab.namespace('p3') };
    await lab.link(ns.center, `${CENTER_HOST}/30`, ns.p1, '192.0.2.2/30');
    await lab.link(ns.center, '192.0.2.5/30', ns.p2, '192.0.2.6/30');
    await lab.link(ns.center, '192.0.2.9/30', ns.revoked, '192.0.2.10/30');
    // The compiled points dial the center's one public address: points 2 and 3 reach it over their own links.
    await lab.exec(ns.p2, 'ip', ['route', 'add', `${CENTER_HOST}/32`, 'via', '192.0.2.5']);
    await lab.exec(ns.revoked, 'ip', ['route', 'add', `${CENTER_HOST}/32`, 'via', '192.0.2.9']);
    await lab.lan(ns.p2, 'lan0', LAN2.cidr);
    // The center routes between its points through its kernel (no client-to-client).
    await lab.exec(ns.center, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);

    center = openvpn(ns.center, 'center', memberDir(config('center-1'), members.center, ca.certPem, crl), 'router.conf');
    await center.waitFor(READY);

    const pointConf = 'center-center-1.conf';
    const p1 = openvpn(ns.p1, 'point 1', memberDir(config('point-1'), members.p1, ca.certPem, crl), pointConf);
    const p2 = openvpn(ns.p2, 'point 2', memberDir(config('point-2'), members.p2, ca.certPem, crl), pointConf);
    await Promise.all([p1.waitFor(READY), p2.waitFor(READY)]);
    memberDir(config('point-3'), revokedCert, ca.certPem, crl);
  });

  afterAll(async () => {
    await lab.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a point reaches the center's VPN address over an AEAD cipher of the list", async () => {
    await lab.waitForPing(ns.p1, centerVpn);
    expect(center.output).toMatch(/SENT CONTROL \[point-1\]: 'PUSH_REPLY,.*cipher AES-256-GCM/);
  });

  it("the second point's LAN is reachable from the first point across the center", async () => {
    // Only the tunnel leads there: point 1's one link ends at the center, which has no such address.
    expect(await lab.exec(ns.p1, 'ip', ['route', 'get', LAN2.address])).toMatch(/dev tun/);
    await lab.waitForPing(ns.p1, LAN2.address);
    expect(await lab.exec(ns.center, 'ip', ['-o', 'address'])).not.toContain(LAN2.address);
  });

  it('the center refuses a point whose certificate is revoked in its CRL', async () => {
    const refused = openvpn(ns.revoked, 'point 3 (revoked)', path.join(dir, 'point-3'), 'center-center-1.conf');
    await until(() => {
      if (READY.test(refused.output)) throw new Error(`the revoked point connected:\n${refused.tail()}`);
      return /VERIFY ERROR: depth=0, error=certificate revoked.*CN=point-3/.test(center.output);
    }, "the center's refusal of point-3");
    await refused.stop();
    expect(refused.output).not.toMatch(READY);
    expect(await lab.pings(ns.revoked, centerVpn)).toBe(false);
  });
});
