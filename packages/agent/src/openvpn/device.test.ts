import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkConfigPayload } from '@hublink/contract';
import type { DeviceSession } from '../device';
import { Scheduler } from '../scheduler';
import { findOpenvpn, OpenvpnDevice } from './device';

const openvpn = findOpenvpn();
const certificates = { 'ca.crt': 'CA PEM\n', 'member.crt': 'CERT PEM\n', 'member.key': 'KEY PEM\n', 'crl.pem': 'CRL PEM\n' };

/*
 * Two twin centers linked over loopback. The compiler's twin link uses TLS on a tun device; this test needs
 * neither root nor tun, so its .conf is a static-key point-to-point link on OpenVPN's `dev null`: the same
 * processes, management port, states and byte counts the agent reads, without a data plane.
 */
function twin(self: string, peer: string, port: number, peerPort: number, role: 'server' | 'client', key: string): NetworkConfigPayload {
  const conf = ['dev null', 'proto udp', `lport ${port}`, 'remote 127.0.0.1', `rport ${peerPort}`, 'secret static.key', 'cipher AES-256-CBC', 'ping 1', 'verb 3', ''].join('\n');
  return {
    network_number: 'N7',
    network_name: 'twins',
    version: 1,
    config: { member_type: 'center', router_name: self, services: [], center_link: { role, peer, address: '100.64.255.1', peer_address: '100.64.255.2' } },
    openvpn: { 'center-link.conf': conf, 'static.key': key },
    certificates,
  };
}

describe.skipIf(!openvpn)('OpenVPN mode with a real openvpn', () => {
  const devices: OpenvpnDevice[] = [];
  const dirs: string[] = [];
  const scheduler = new Scheduler();

  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.stop()));
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  function device(name: string) {
    const stateDir = mkdtempSync(join(tmpdir(), `hublink-agent-${name}-`));
    dirs.push(stateDir);
    const sessions: { event: 'up' | 'down'; session: DeviceSession }[] = [];
    const d = new OpenvpnDevice({ kind: 'router', name, binary: openvpn!, stateDir, scheduler, pollMs: 200 });
    d.attach({ sessionUp: (session) => sessions.push({ event: 'up', session }), sessionDown: (session) => sessions.push({ event: 'down', session }), log: () => {} });
    devices.push(d);
    return { d, stateDir, sessions };
  }

  it('writes the files, runs openvpn, reports the link, its session and its bytes, and cleans up on leave', async () => {
    const keyDir = mkdtempSync(join(tmpdir(), 'hublink-agent-key-'));
    dirs.push(keyDir);
    execFileSync(openvpn!, ['--genkey', 'secret', join(keyDir, 'static.key')]);
    const key = readFileSync(join(keyDir, 'static.key'), 'utf8');
    const a = device('c1');
    const b = device('c2');
    const port = 20000 + Math.floor(Math.random() * 20000);
    await a.d.apply(twin('c1', 'c2', port, port + 1, 'server', key));
    await b.d.apply(twin('c2', 'c1', port + 1, port, 'client', key));

    const dir = join(a.stateDir, 'N7');
    expect(readFileSync(join(dir, 'ca.crt'), 'utf8')).toBe('CA PEM\n');
    expect(statSync(join(dir, 'member.key')).mode & 0o777).toBe(0o600);
    expect(existsSync(join(dir, 'center-link.conf'))).toBe(true);

    await expect.poll(() => a.d.links()).toEqual([{ network_number: 'N7', peer: 'c2', vpn_ip: '100.64.255.2', online: 1, since: expect.any(Number) }]);
    await expect.poll(() => b.sessions.map((s) => [s.event, s.session.link_router_name, s.session.mode])).toEqual([['up', 'c1', 'p2p']]);
    expect(b.sessions[0]!.session.orig).toMatch(/^127\.0\.0\.1:\d+$/);
    await expect.poll(() => a.d.traffic(1).rx_bytes).toBeGreaterThan(0);
    const sample = a.d.traffic(1);
    expect(sample.data.map((p) => p.interface)).toEqual(['N7/center-link']);

    await b.d.command('restart', 'N7');
    await expect.poll(() => b.sessions.map((s) => s.event)).toEqual(['up', 'down', 'up']);

    await a.d.leave('N7');
    expect(existsSync(dir)).toBe(false);
    expect(a.d.links()).toEqual([]);
    expect(a.sessions.map((s) => s.event)).toEqual(['up', 'down']);
  });

  it('restarts an openvpn that dies, until the network is left', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hublink-agent-fake-'));
    dirs.push(dir);
    const starts = join(dir, 'starts');
    const fake = join(dir, 'openvpn');
    writeFileSync(fake, `#!/bin/sh\necho "$@" >> ${starts}\nexit 1\n`, { mode: 0o755 });
    const stateDir = mkdtempSync(join(tmpdir(), 'hublink-agent-dies-'));
    dirs.push(stateDir);
    const logs: string[] = [];
    const d = new OpenvpnDevice({ kind: 'router', name: 'x', binary: fake, stateDir, scheduler, backoff: { firstMinMs: 10, firstMaxMs: 30, maxMs: 60, throttledMinMs: 60 } });
    d.attach({ sessionUp: () => {}, sessionDown: () => {}, log: (line) => logs.push(line) });
    devices.push(d);
    await d.apply(twin('c5', 'c6', 1, 2, 'server', ''));
    const lines = () => (existsSync(starts) ? readFileSync(starts, 'utf8').trim().split('\n') : []);
    await expect.poll(() => lines().length).toBeGreaterThanOrEqual(3);
    expect(lines()[0]).toMatch(new RegExp(`^--cd ${join(stateDir, 'N7')} --config center-link.conf --management 127.0.0.1 \\d+$`));
    expect(logs.some((l) => l.includes('openvpn exited (1); restarting'))).toBe(true);
    await d.leave('N7');
    const after = lines().length;
    // Nothing is left to restart it: every pending restart was cancelled with the instance.
    expect(scheduler.pending).toBe(0);
    expect(lines().length).toBe(after);
  });

  it('makes the client-config-dir a server names though no client file lands in it, never outside the network directory', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'hublink-agent-ccd-'));
    dirs.push(stateDir);
    const d = new OpenvpnDevice({ kind: 'router', name: 'c8', binary: '/bin/true', stateDir, scheduler, backoff: { firstMinMs: 1000, firstMaxMs: 1000, maxMs: 1000, throttledMinMs: 1000 } });
    d.attach({ sessionUp: () => {}, sessionDown: () => {}, log: () => {} });
    devices.push(d);
    const server = (ccd: string) => ({ ...twin('c8', 'c9', 1, 2, 'server', ''), openvpn: { 'software.conf': `dev tun\nclient-config-dir ${ccd}\nccd-exclusive\n` } });
    await d.apply(server('ccd-software'));
    expect(statSync(join(stateDir, 'N7', 'ccd-software')).isDirectory()).toBe(true);
    await expect(d.apply(server('../../outside'))).rejects.toThrow('refused file path');
    expect(existsSync(join(stateDir, 'outside'))).toBe(false);
  });

  it('refuses a file path outside the network directory', async () => {
    const a = device('c3');
    const bad = { ...twin('c3', 'c4', 1, 2, 'server', ''), openvpn: { '../escape.conf': 'x' } };
    await expect(a.d.apply(bad)).rejects.toThrow('refused file path');
  });
});
