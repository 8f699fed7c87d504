import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CommandError, type HostCommands } from './commands';
import { autoMethod, dnsManager, type DnsMethod } from './dns';
import { APPLIED_DNS_DEVICE } from './dnsTools';

/** Records every command; `fail` decides which of them fail (with a stderr). */
function fakeHost(fail: (cmd: string, args: string[]) => string | null = () => null) {
  const calls: [string, string[], string?][] = [];
  const host: HostCommands = {
    run: async (cmd, args, input) => {
      calls.push(input === undefined ? [cmd, args] : [cmd, args, input]);
      const stderr = fail(cmd, args);
      if (stderr !== null) throw new CommandError([cmd, ...args].join(' '), stderr, 1);
      return '';
    },
  };
  return { host, calls };
}

describe('DNS through system tools, after a crash too', () => {
  let stateDir = '';
  const manager = (method: DnsMethod, host: HostCommands) => dnsManager({ method, stateDir, host });
  const record = () => join(stateDir, APPLIED_DNS_DEVICE);

  beforeEach(() => {
    stateDir = mkdtempSync(join(tmpdir(), 'hublink-dns-tools-'));
  });
  afterEach(() => rmSync(stateDir, { recursive: true, force: true }));

  it('resolvconf: a record per device with the nameserver lines, deleted on restore, once', async () => {
    const { host, calls } = fakeHost();
    const dns = manager('resolvconf', host);
    expect(await dns.apply(['10.0.0.53', '10.0.0.54'], 'hl0')).toBe('DNS: 10.0.0.53, 10.0.0.54 for hl0 through resolvconf');
    expect(readFileSync(record(), 'utf8')).toBe('hl0');
    await dns.restore();
    await dns.restore();
    expect(calls).toEqual([
      ['resolvconf', ['-a', 'hl0.hublink'], 'nameserver 10.0.0.53\nnameserver 10.0.0.54\n'],
      ['resolvconf', ['-d', 'hl0.hublink']],
    ]);
    expect(existsSync(record())).toBe(false);
  });

  it('resolvectl: the servers and the routing domain ~. on the device, reverted on restore', async () => {
    const { host, calls } = fakeHost();
    const dns = manager('resolvectl', host);
    expect(await dns.apply(['10.0.0.53', '10.0.0.54'], 'hl1')).toBe('DNS: 10.0.0.53, 10.0.0.54 for hl1 through resolvectl');
    await dns.apply(['10.0.0.53', '10.0.0.54'], 'hl1');
    await dns.restore();
    expect(calls).toEqual([
      ['resolvectl', ['dns', 'hl1', '10.0.0.53', '10.0.0.54']],
      ['resolvectl', ['domain', 'hl1', '~.']],
      ['resolvectl', ['dns', 'hl1', '10.0.0.53', '10.0.0.54']],
      ['resolvectl', ['domain', 'hl1', '~.']],
      ['resolvectl', ['revert', 'hl1']],
    ]);
  });

  it('undoes the device applied before when the servers move to another, and on an empty list', async () => {
    const { host, calls } = fakeHost();
    const dns = manager('resolvconf', host);
    await dns.apply(['10.0.0.53'], 'hl0');
    await dns.apply(['10.0.0.53'], 'hl1');
    expect(await dns.apply([], 'hl1')).toBe('DNS: resolvconf settings removed');
    expect(calls.map(([, args]) => args.join(' '))).toEqual(['-a hl0.hublink', '-d hl0.hublink', '-a hl1.hublink', '-d hl1.hublink']);
  });

  it('the next start undoes what a crashed run applied, from the device it recorded', async () => {
    await manager('resolvconf', fakeHost().host).apply(['10.0.0.53'], 'hl3');
    const { host, calls } = fakeHost();
    await manager('resolvconf', host).restore();
    expect(calls).toEqual([['resolvconf', ['-d', 'hl3.hublink']]]);
  });

  it('keeps the record when undoing fails, so that the next restore tries again', async () => {
    const failing = fakeHost((cmd) => (cmd === 'resolvconf' ? 'resolvconf: Error: cannot write' : null));
    await manager('resolvconf', fakeHost().host).apply(['10.0.0.53'], 'hl0');
    await expect(manager('resolvconf', failing.host).restore()).rejects.toThrow('resolvconf -d hl0.hublink failed (1): resolvconf: Error: cannot write');
    expect(readFileSync(record(), 'utf8')).toBe('hl0');
  });

  it('resolvectl: a device that is gone took its settings with it; a revert that fails otherwise is an error', async () => {
    await manager('resolvectl', fakeHost().host).apply(['10.0.0.53'], 'hl0');
    const refused = (cmd: string) => (cmd === 'resolvectl' ? 'Failed to revert interface configuration: Access denied' : null);
    await expect(manager('resolvectl', fakeHost(refused).host).restore()).rejects.toThrow('resolvectl revert hl0 failed (1): Failed to revert interface configuration');
    const gone = fakeHost((cmd) => (cmd === 'resolvectl' ? 'Failed to resolve interface "hl0": No such device' : 'Device "hl0" does not exist.'));
    await manager('resolvectl', gone.host).restore();
    expect(gone.calls).toEqual([
      ['resolvectl', ['revert', 'hl0']],
      ['ip', ['link', 'show', 'dev', 'hl0']],
    ]);
    expect(existsSync(record())).toBe(false);
  });

  it('none: no command, no file', async () => {
    const { host, calls } = fakeHost();
    const dns = manager('none', host);
    await dns.apply(['10.0.0.53'], 'hl0');
    await dns.restore();
    expect(calls).toEqual([]);
    expect(existsSync(record())).toBe(false);
  });

  it('refuses servers that are not IP addresses, before any command', async () => {
    const { host, calls } = fakeHost();
    await expect(manager('resolvectl', host).apply(['10.0.0.53', '--interface=eth0'], 'hl0')).rejects.toThrow('DNS servers must be IP addresses: --interface=eth0');
    expect(calls).toEqual([]);
  });
});

describe('the auto method', () => {
  const probe = (files: string[], commands: string[]) => ({ exists: (p: string) => files.includes(p), hasCommand: (c: string) => commands.includes(c) });

  it('picks systemd-resolved when it runs, else resolvconf when installed, else the file', () => {
    expect(autoMethod(probe(['/run/systemd/resolve/stub-resolv.conf'], ['resolvectl', 'resolvconf']))).toBe('resolvectl');
    expect(autoMethod(probe([], ['resolvectl', 'resolvconf']))).toBe('resolvconf');
    expect(autoMethod(probe(['/run/systemd/resolve/stub-resolv.conf'], ['resolvconf']))).toBe('resolvconf');
    expect(autoMethod(probe(['/run/systemd/resolve/stub-resolv.conf'], []))).toBe('file');
    expect(autoMethod(probe([], []))).toBe('file');
  });
});
