import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localHost } from './commands';
import { dnsManager } from './dns';
import { SAVED_RESOLV_CONF } from './dnsFile';

const ORIGINAL = '# from DHCP\nsearch lan.example\nnameserver 192.168.1.1\noptions edns0\n';

describe("the file method: the agent's resolv.conf, and the original back", () => {
  let dir = '';
  let stateDir = '';
  let resolvConf = '';
  const manager = () => dnsManager({ method: 'file', resolvConf, stateDir, host: localHost() });
  const read = () => readFileSync(resolvConf, 'utf8');
  const saved = () => join(stateDir, SAVED_RESOLV_CONF);

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'hublink-dns-'));
    stateDir = join(dir, 'state');
    resolvConf = join(dir, 'resolv.conf');
    mkdirSync(stateDir);
    writeFileSync(resolvConf, ORIGINAL);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes the network's servers first, then the original's while there is room, and keeps search and options", async () => {
    expect(await manager().apply(['10.0.0.53', '10.0.0.54'], 'hl0')).toBe(`DNS: 10.0.0.53, 10.0.0.54 written to ${resolvConf}`);
    expect(read()).toBe(
      [
        '# Written by the HubLink agent for hl0; the original comes back when the agent leaves the network or stops.',
        'nameserver 10.0.0.53',
        'nameserver 10.0.0.54',
        'nameserver 192.168.1.1',
        '# from DHCP',
        'search lan.example',
        'options edns0',
        '',
      ].join('\n'),
    );
    expect(readFileSync(saved(), 'utf8')).toBe(ORIGINAL);
  });

  it('writes at most three servers, the network’s before the original’s', async () => {
    await manager().apply(['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4'], 'hl0');
    expect(read().match(/^nameserver .*/gm)).toEqual(['nameserver 10.0.0.1', 'nameserver 10.0.0.2', 'nameserver 10.0.0.3']);
  });

  it('applies again from the original, never from its own file, and restores the original exactly, once', async () => {
    const dns = manager();
    await dns.apply(['10.0.0.53'], 'hl0');
    await dns.apply(['10.0.0.53'], 'hl0');
    const once = read();
    await dns.apply(['10.0.0.99', '192.168.1.1'], 'hl0');
    expect(read().match(/^(nameserver|#) .*/gm)).toEqual([expect.stringMatching(/^# Written by the HubLink agent/), 'nameserver 10.0.0.99', 'nameserver 192.168.1.1', '# from DHCP']);
    await dns.apply(['10.0.0.53'], 'hl0');
    expect(read()).toBe(once);
    expect(readFileSync(saved(), 'utf8')).toBe(ORIGINAL);
    await dns.restore();
    expect(read()).toBe(ORIGINAL);
    expect(existsSync(saved())).toBe(false);
    await dns.restore();
    expect(read()).toBe(ORIGINAL);
  });

  it('restores on an empty list of servers', async () => {
    await manager().apply(['10.0.0.53'], 'hl0');
    expect(await manager().apply([], 'hl0')).toBe(`DNS: ${resolvConf} restored`);
    expect(read()).toBe(ORIGINAL);
  });

  it('puts the original back at the next start after a crash', async () => {
    await manager().apply(['10.0.0.53'], 'hl0');
    // The agent died here; a new one starts and restores first.
    await manager().restore();
    expect(read()).toBe(ORIGINAL);
    expect(existsSync(saved())).toBe(false);
  });

  it('takes a file someone else rewrote meanwhile for the original, and leaves it to them on restore', async () => {
    const dns = manager();
    await dns.apply(['10.0.0.53'], 'hl0');
    writeFileSync(resolvConf, 'nameserver 192.168.1.2\n');
    await dns.apply(['10.0.0.53'], 'hl0');
    expect(read()).toMatch(/^nameserver 10\.0\.0\.53\nnameserver 192\.168\.1\.2\n$/m);
    expect(readFileSync(saved(), 'utf8')).toBe('nameserver 192.168.1.2\n');
    writeFileSync(resolvConf, 'nameserver 192.168.1.3\n');
    await dns.restore();
    expect(read()).toBe('nameserver 192.168.1.3\n');
    expect(existsSync(saved())).toBe(false);
  });

  it('puts back a symbolic link (resolvconf, systemd-resolved) as a link, its target untouched', async () => {
    const target = join(dir, 'stub-resolv.conf');
    writeFileSync(target, ORIGINAL);
    rmSync(resolvConf);
    symlinkSync(target, resolvConf);
    const dns = manager();
    await dns.apply(['10.0.0.53'], 'hl0');
    expect(lstatSync(resolvConf).isSymbolicLink()).toBe(false);
    expect(read()).toMatch(/^nameserver 10\.0\.0\.53$/m);
    expect(readFileSync(target, 'utf8')).toBe(ORIGINAL);
    await dns.restore();
    expect(readlinkSync(resolvConf)).toBe(target);
    expect(readFileSync(target, 'utf8')).toBe(ORIGINAL);
    expect(existsSync(join(stateDir, 'resolv.conf.hublink-saved-link'))).toBe(false);
  });

  it('refuses servers that are not IP addresses (they become lines of the file)', async () => {
    await expect(manager().apply(['10.0.0.53', '10.0.0.1\nnameserver 6.6.6.6'], 'hl0')).rejects.toThrow('DNS servers must be IP addresses: 10.0.0.1\nnameserver 6.6.6.6');
    expect(read()).toBe(ORIGINAL);
    await manager().apply(['2001:db8::53'], 'hl0');
    expect(read()).toMatch(/^nameserver 2001:db8::53$/m);
  });

  it('the none method touches nothing', async () => {
    const none = dnsManager({ method: 'none', resolvConf, stateDir, host: localHost() });
    expect(await none.apply(['10.0.0.53'], 'hl0')).toBe('DNS: 10.0.0.53 not applied (method none)');
    await none.restore();
    expect(read()).toBe(ORIGINAL);
    expect(existsSync(saved())).toBe(false);
  });
});
