import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NetworkConfigPayload } from '@hublink/contract';
import type { DeviceSession } from '../device';
import { Scheduler } from '../scheduler';
import { findOpenvpn, OpenvpnDevice } from './device';
import { OpenvpnInstance } from './instance';

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
    config: { member_type: 'center', router_name: self, services: [], links: [{ name: `link-${peer}`, kind: 'twin', role, peer, address: '100.64.255.1', peer_address: '100.64.255.2' }] },
    openvpn: { [`link-${peer}.conf`]: conf, 'static.key': key },
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
    expect(existsSync(join(dir, 'link-c2.conf'))).toBe(true);

    await expect.poll(() => a.d.links()).toEqual([{ network_number: 'N7', peer: 'c2', vpn_ip: '100.64.255.2', online: 1, since: expect.any(Number) }]);
    await expect.poll(() => b.sessions.map((s) => [s.event, s.session.link_router_name, s.session.mode])).toEqual([['up', 'c1', 'p2p']]);
    expect(b.sessions[0]!.session.orig).toMatch(/^127\.0\.0\.1:\d+$/);
    await expect.poll(() => a.d.traffic(1).rx_bytes).toBeGreaterThan(0);
    const sample = a.d.traffic(1);
    expect(sample.data.map((p) => p.interface)).toEqual(['N7/link-c2']);

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
    expect(lines()[0]).toMatch(new RegExp(`^--cd ${join(stateDir, 'N7')} --config link-c6.conf --management 127.0.0.1 \\d+ --writepid \\S+link-c6.pid$`));
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

/*
 * A stand-in for openvpn that needs nothing installed: it records each start and every management
 * command it is sent, and answers them as openvpn does (one line, or a block ending in END).
 */
function fakeOpenvpn(dir: string): { binary: string; starts: () => string[]; commands: () => string[] } {
  const startsFile = join(dir, 'starts');
  const commandsFile = join(dir, 'commands');
  const server = join(dir, 'management.cjs');
  writeFileSync(
    server,
    `const [port, conf, log] = process.argv.slice(2);
const fs = require('node:fs');
// Its server has three clients, with client ids 1, 2, 3.
const clients = ['p1', 'p2', 'p3'];
const header = 'HEADER\\tCLIENT_LIST\\tCommon Name\\tReal Address\\tVirtual Address\\tVirtual IPv6 Address\\tBytes Received\\tBytes Sent\\tConnected Since\\tConnected Since (time_t)\\tUsername\\tClient ID\\n';
require('node:net').createServer((s) => {
  let buffer = '';
  s.on('error', () => {});
  s.on('data', (d) => {
    buffer += d;
    let i;
    while ((i = buffer.indexOf('\\n')) >= 0) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      fs.appendFileSync(log, conf + ' ' + line + '\\n');
      if (line === 'status 3') s.write('TITLE\\tOpenVPN\\n' + header + clients.map((c, i) => 'CLIENT_LIST\\t' + c + '\\t10.0.0.' + i + ':1194\\t\\t\\t0\\t0\\t\\t0\\t\\t' + (i + 1) + '\\n').join(''));
      s.write(line === 'state' || line.startsWith('status') ? 'END\\n' : 'SUCCESS: done\\n');
    }
  });
}).listen(Number(port), '127.0.0.1');
`,
  );
  const binary = join(dir, 'openvpn');
  // Called as: --cd DIR --config CONF --management 127.0.0.1 PORT
  writeFileSync(binary, `#!/bin/sh\necho "$4" >> ${startsFile}\nexec "${process.execPath}" ${server} "$7" "$4" ${commandsFile}\n`, { mode: 0o755 });
  const read = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean) : []);
  return { binary, starts: () => read(startsFile), commands: () => read(commandsFile) };
}

describe('a new config of a network it is in', () => {
  const scheduler = new Scheduler();
  let dir = '';
  let d: OpenvpnDevice | undefined;

  afterEach(async () => {
    await d?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const server = 'port 1194\nclient-config-dir ccd-router\nccd-exclusive\ncrl-verify crl.pem\n';
  function config(openvpn: Record<string, string>, certs: Partial<NonNullable<NetworkConfigPayload['certificates']>> = {}): NetworkConfigPayload {
    return { ...twin('c1', 'c2', 1, 2, 'server', ''), openvpn, certificates: { ...certificates, ...certs } };
  }

  it('changes the files in place, restarts only what changed, and disconnects the clients whose file changed or went', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hublink-agent-update-'));
    const fake = fakeOpenvpn(dir);
    const stateDir = join(dir, 'state');
    d = new OpenvpnDevice({ kind: 'router', name: 'c1', binary: fake.binary, stateDir, scheduler, pollMs: 100_000 });
    d.attach({ sessionUp: () => {}, sessionDown: () => {}, log: () => {} });
    const network = join(stateDir, 'N7');
    const startsOf = (conf: string) => fake.starts().filter((s) => s === conf).length;
    const polled = (conf: string) => fake.commands().filter((c) => c === `${conf} status 3`).length;

    await d.apply(config({ 'router.conf': server, 'link.conf': 'remote a\n', 'old.conf': 'remote b\n', 'ccd-router/p1': 'ifconfig-push 1\n', 'ccd-router/p2': 'ifconfig-push 2\n', 'ccd-router/p3': 'ifconfig-push 3\n' }));
    await expect.poll(() => ['router.conf', 'link.conf', 'old.conf'].map(polled)).toEqual([1, 1, 1]);

    // p1 removed, p2 changed, p3 kept, p4 added; the link's .conf changed; old.conf gone, new.conf new; a new CRL.
    await d.apply(
      config(
        { 'router.conf': server, 'link.conf': 'remote c\n', 'new.conf': 'remote d\n', 'ccd-router/p2': 'disable\n', 'ccd-router/p3': 'ifconfig-push 3\n', 'ccd-router/p4': 'ifconfig-push 4\n' },
        { 'crl.pem': 'CRL 2\n' },
      ),
    );
    expect(fake.commands().filter((c) => c.includes(' client-kill ')).sort()).toEqual(['router.conf client-kill 1', 'router.conf client-kill 2']);
    await expect.poll(() => ['router.conf', 'link.conf', 'old.conf', 'new.conf'].map(startsOf)).toEqual([1, 2, 1, 1]);
    expect(existsSync(join(network, 'ccd-router', 'p1'))).toBe(false);
    expect(readFileSync(join(network, 'ccd-router', 'p2'), 'utf8')).toBe('disable\n');
    expect(readFileSync(join(network, 'crl.pem'), 'utf8')).toBe('CRL 2\n');
    expect(existsSync(join(network, 'old.conf'))).toBe(false);
    expect(readFileSync(join(network, 'link.conf'), 'utf8')).toBe('remote c\n');

    // A new certificate restarts every tunnel that uses it.
    await d.apply(config({ 'router.conf': server, 'link.conf': 'remote c\n', 'new.conf': 'remote d\n' }, { 'member.crt': 'CERT 2\n', 'crl.pem': 'CRL 2\n' }));
    await expect.poll(() => ['router.conf', 'link.conf', 'new.conf'].map(startsOf)).toEqual([2, 3, 2]);
    expect(statSync(join(network, 'member.key')).mode & 0o777).toBe(0o600);
    // So does a new tls-crypt key (the network's first one here), written for its owner only.
    await d.apply(config({ 'router.conf': server, 'link.conf': 'remote c\n', 'new.conf': 'remote d\n' }, { 'member.crt': 'CERT 2\n', 'crl.pem': 'CRL 2\n', 'tls-crypt.key': 'TLS CRYPT 1\n' }));
    await expect.poll(() => ['router.conf', 'link.conf', 'new.conf'].map(startsOf)).toEqual([3, 4, 3]);
    expect(statSync(join(network, 'tls-crypt.key')).mode & 0o777).toBe(0o600);

    // The same config again changes nothing; a resend_config command (which follows its config) applies it afresh.
    const inodes = () => ['router.conf', 'crl.pem', 'member.key'].map((f) => statSync(join(network, f)).ino);
    const written = inodes();
    await d.apply(config({ 'router.conf': server, 'link.conf': 'remote c\n', 'new.conf': 'remote d\n' }, { 'member.crt': 'CERT 2\n', 'crl.pem': 'CRL 2\n', 'tls-crypt.key': 'TLS CRYPT 1\n' }));
    expect(inodes()).toEqual(written);
    await d.command('resend_config', 'N7');
    expect(inodes()).not.toEqual(written);
    await expect.poll(() => ['router.conf', 'link.conf', 'new.conf'].map(startsOf)).toEqual([4, 5, 4]);

    // A config with a path outside the directory changes nothing.
    const starts = fake.starts().length;
    await expect(d.apply(config({ 'router.conf': 'changed\n', '../escape': 'x' }))).rejects.toThrow('refused file path');
    expect(readFileSync(join(network, 'router.conf'), 'utf8')).toBe(server);
    expect(fake.starts().length).toBe(starts);
  });
});

describe('one openvpn per tunnel', () => {
  const scheduler = new Scheduler();
  let dir = '';

  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  /** The fake openvpn processes of this test still running (their command line names the test's directory). */
  function running(): number[] {
    return readdirSync('/proc')
      .filter((p) => /^\d+$/.test(p))
      .filter((p) => {
        try {
          return readFileSync(`/proc/${p}/cmdline`, 'utf8').includes(join(dir, 'management.cjs'));
        } catch {
          return false;
        }
      })
      .map(Number);
  }

  it('never leaves two processes, whatever order starts and stops arrive in', async () => {
    dir = mkdtempSync(join(tmpdir(), 'hublink-agent-race-'));
    const fake = fakeOpenvpn(dir);
    mkdirSync(join(dir, 'net'));
    writeFileSync(join(dir, 'net', 'a.conf'), 'remote x\n');
    const instance = new OpenvpnInstance({ binary: fake.binary, dir: join(dir, 'net'), conf: 'a.conf', dev: null, scheduler, log: () => {}, onChange: () => {} });
    // Each start waits for a free management port before it spawns: stops and starts that come meanwhile must not add a process.
    for (let i = 0; i < 20; i++) {
      instance.start();
      if (i % 3 === 0) await Promise.resolve();
      if (i % 2 === 1) await instance.stop();
    }
    instance.start();
    instance.start();
    await expect.poll(() => fake.starts().length).toBeGreaterThan(0);
    await expect.poll(() => running().length).toBe(1);
    await instance.stop();
    await expect.poll(() => running().length).toBe(0);
  });
});
