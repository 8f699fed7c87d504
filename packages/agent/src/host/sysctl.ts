import type { HostCommands } from './commands';

/** One kernel setting the agent changed, for its log (and to undo it if the lead's core wants to). */
export interface SysctlChange {
  key: string;
  from: string;
  to: string;
}

const FORWARDING_ON = '1';
const RP_FILTER_STRICT = '1';
const RP_FILTER_LOOSE = '2';
/** Hash on the 5-tuple, so a multipath route balances flows rather than pairs of addresses. */
const MULTIPATH_HASH_L4 = '1';

/** The sysctl key of a device's IPv4 setting; a dot in its name (eth0.100) is written as '/'. */
function deviceKey(dev: string, setting: string): string {
  return `net.ipv4.conf.${dev.replaceAll('.', '/')}.${setting}`;
}

async function read(host: HostCommands, key: string): Promise<string> {
  return (await host.run('sysctl', ['-n', key])).trim();
}

/** Sets `key` to `to` when `applies` holds for its current value; returns the change, or null. */
async function setWhen(host: HostCommands, key: string, to: string, applies: (current: string) => boolean): Promise<SysctlChange | null> {
  const from = await read(host, key);
  if (from === to || !applies(from)) return null;
  await host.run('sysctl', ['-q', '-w', `${key}=${to}`]);
  return { key, from, to };
}

/** Routes packets between devices (net.ipv4.ip_forward=1); null when it already did. */
export function enableForwarding(host: HostCommands): Promise<SysctlChange | null> {
  return setWhen(host, 'net.ipv4.ip_forward', FORWARDING_ON, () => true);
}

/**
 * Makes strict reverse-path filtering (1) loose (2) for `all` and for each of `devs`: a reply that comes
 * back on another path of a multipath route would otherwise be dropped. The kernel filters a device by
 * the higher of its value and all's, so only strict values change: off (0) and loose stay as they are.
 * A device made later (openvpn makes its tun device anew) starts from conf.default: call again for it.
 */
export async function looseReversePath(host: HostCommands, devs: string[]): Promise<SysctlChange[]> {
  const changes: SysctlChange[] = [];
  for (const dev of ['all', ...devs]) {
    const change = await setWhen(host, deviceKey(dev, 'rp_filter'), RP_FILTER_LOOSE, (v) => v === RP_FILTER_STRICT);
    if (change) changes.push(change);
  }
  return changes;
}

/** Balances a multipath route per flow, on ports too (net.ipv4.fib_multipath_hash_policy=1); null when it already did. */
export function multipathHashL4(host: HostCommands): Promise<SysctlChange | null> {
  return setWhen(host, 'net.ipv4.fib_multipath_hash_policy', MULTIPATH_HASH_L4, () => true);
}
