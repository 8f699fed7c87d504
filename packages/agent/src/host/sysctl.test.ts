import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localHost, type HostCommands } from './commands';
import { enableForwarding, looseReversePath, multipathHashL4 } from './sysctl';
import { HostLab, requireHostTools } from './testLab';

describe('the kernel settings the agent needs', () => {
  const lab = new HostLab('hlsys');
  let host: HostCommands;
  const read = async (key: string) => (await host.run('sysctl', ['-n', key])).trim();
  const write = (key: string, value: string) => host.run('sysctl', ['-q', '-w', `${key}=${value}`]);
  let hostForwarding = '';

  beforeAll(async () => {
    requireHostTools();
    hostForwarding = (await localHost().run('sysctl', ['-n', 'net.ipv4.ip_forward'])).trim();
    await lab.removeLeftovers();
    const ns = await lab.namespace('s');
    host = lab.commands(ns);
    // A device name with a dot, like a VLAN's (eth0.100): sysctl writes it with a slash.
    for (const dev of ['hlt0', 'hlt1', 'hlt2', 'v.5']) await lab.tun(ns, dev);
  });
  afterAll(async () => {
    await lab.close();
    // The namespace's settings are its own: the host's stayed as they were.
    expect((await localHost().run('sysctl', ['-n', 'net.ipv4.ip_forward'])).trim()).toBe(hostForwarding);
  });

  it('turns forwarding on once, and says so only when it changed it', async () => {
    expect(await read('net.ipv4.ip_forward')).toBe('0');
    expect(await enableForwarding(host)).toEqual({ key: 'net.ipv4.ip_forward', from: '0', to: '1' });
    expect(await enableForwarding(host)).toBeNull();
    expect(await read('net.ipv4.ip_forward')).toBe('1');
  });

  it('makes strict reverse-path filtering loose, for all and the devices given, and leaves off and loose alone', async () => {
    await write('net.ipv4.conf.all.rp_filter', '1');
    await write('net.ipv4.conf.hlt0.rp_filter', '1');
    await write('net.ipv4.conf.hlt1.rp_filter', '0');
    await write('net.ipv4.conf.hlt2.rp_filter', '2');
    await write('net.ipv4.conf.v/5.rp_filter', '1');
    const devs = ['hlt0', 'hlt1', 'hlt2', 'v.5'];
    expect(await looseReversePath(host, devs)).toEqual([
      { key: 'net.ipv4.conf.all.rp_filter', from: '1', to: '2' },
      { key: 'net.ipv4.conf.hlt0.rp_filter', from: '1', to: '2' },
      { key: 'net.ipv4.conf.v/5.rp_filter', from: '1', to: '2' },
    ]);
    expect(await looseReversePath(host, devs)).toEqual([]);
    expect(await read('net.ipv4.conf.hlt1.rp_filter')).toBe('0');
  });

  it('balances multipath routes per flow', async () => {
    expect(await multipathHashL4(host)).toEqual({ key: 'net.ipv4.fib_multipath_hash_policy', from: '0', to: '1' });
    expect(await multipathHashL4(host)).toBeNull();
    expect(await read('net.ipv4.fib_multipath_hash_policy')).toBe('1');
  });

  it('fails naming the setting of a device that does not exist', async () => {
    await expect(looseReversePath(host, ['hl77'])).rejects.toThrow(/sysctl -n net\.ipv4\.conf\.hl77\.rp_filter failed \(\d+\): sysctl: cannot stat \/proc\/sys\/net\/ipv4\/conf\/hl77\/rp_filter/);
  });
});
