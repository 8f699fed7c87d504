import { spawn, type ChildProcess } from 'node:child_process';
import { readdir, rm } from 'node:fs/promises';
import { findCommand, isAlive, localHost, namespaceHost, type HostCommands } from './commands';

/*
 * Network namespaces for the host primitives' tests, after the server's lab (packages/server/test/netns.ts):
 * every name carries the file's prefix and the pid ('hlrt-4711-r'), a new lab removes what labs of its
 * prefix whose process is gone left behind (namespaces, their /etc/netns directory, what ran in them),
 * and close() removes everything of its own even after a failure. Nothing is made in the host's namespace.
 */

const host = localHost();
/** Where `ip netns exec` finds a namespace's own resolv.conf (bind-mounted over /etc/resolv.conf). */
export const NETNS_ETC = '/etc/netns';

/** Fails, naming what is missing, unless the machine can run these tests. */
export function requireHostTools(): void {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (network namespaces need CAP_NET_ADMIN)');
  for (const tool of ['ip', 'nft', 'sysctl']) if (!findCommand(tool)) missing.push(tool);
  if (missing.length > 0) throw new Error(`the host tests need ${missing.join(', ')}; on Debian: apt-get install -y iproute2 nftables procps, and run as root`);
}

async function removeNamespace(ns: string): Promise<void> {
  const pids = (await host.run('ip', ['netns', 'pids', ns]).catch(() => '')).split(/\s+/).filter(Boolean);
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await host.run('ip', ['netns', 'del', ns]);
  await rm(`${NETNS_ETC}/${ns}`, { recursive: true, force: true });
}

export class HostLab {
  private readonly namespaces: string[] = [];
  private readonly children: ChildProcess[] = [];

  /** prefix: lowercase letters, unique to the test file. */
  constructor(private readonly prefix: string) {
    if (!/^[a-z]{2,8}$/.test(prefix)) throw new Error(`lab prefix '${prefix}': 2 to 8 lowercase letters`);
  }

  ns(name: string): string {
    return `${this.prefix}-${process.pid}-${name}`;
  }

  async removeLeftovers(): Promise<void> {
    const pattern = new RegExp(`^${this.prefix}-(\\d+)-`);
    const dead = (name: string) => {
      const owner = pattern.exec(name)?.[1];
      return owner !== undefined && !isAlive(Number(owner));
    };
    for (const line of (await host.run('ip', ['netns', 'list'])).split('\n')) {
      const name = line.split(' ')[0]!;
      if (dead(name)) await removeNamespace(name);
    }
    for (const name of await readdir(NETNS_ETC).catch(() => [])) {
      if (dead(name)) await rm(`${NETNS_ETC}/${name}`, { recursive: true, force: true });
    }
  }

  /** A new namespace with its loopback up; returns its full name. */
  async namespace(name: string): Promise<string> {
    const full = this.ns(name);
    await host.run('ip', ['netns', 'add', full]);
    this.namespaces.push(full);
    await host.run('ip', ['-n', full, 'link', 'set', 'lo', 'up']);
    return full;
  }

  commands(ns: string): HostCommands {
    return namespaceHost(ns);
  }

  /** A veth pair from `a` to `b` with its ends' names and addresses (CIDR), both up. */
  async veth(a: string, endA: string, addressA: string, b: string, endB: string, addressB: string): Promise<void> {
    await host.run('ip', ['-n', a, 'link', 'add', endA, 'type', 'veth', 'peer', 'name', endB, 'netns', b]);
    for (const [ns, end, address] of [
      [a, endA, addressA],
      [b, endB, addressB],
    ] as const) {
      await host.run('ip', ['-n', ns, 'address', 'add', address, 'dev', end]);
      await host.run('ip', ['-n', ns, 'link', 'set', end, 'up']);
    }
  }

  /** A tun device, up (no carrier: it carries nothing, but routes can point at it). */
  async tun(ns: string, name: string): Promise<void> {
    await host.run('ip', ['-n', ns, 'tuntap', 'add', 'dev', name, 'mode', 'tun']);
    await host.run('ip', ['-n', ns, 'link', 'set', name, 'up']);
  }

  /** A long-running process in a namespace; stopped by close(). */
  start(ns: string, cmd: string, args: string[]): ChildProcess {
    const child = spawn(findCommand('ip') ?? 'ip', ['netns', 'exec', ns, cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    this.children.push(child);
    return child;
  }

  async close(): Promise<void> {
    for (const child of this.children.splice(0)) child.kill('SIGKILL');
    const errors: string[] = [];
    for (const ns of this.namespaces.splice(0)) await removeNamespace(ns).catch((e: Error) => errors.push(e.message));
    if (errors.length > 0) throw new Error(`lab cleanup: ${errors.join('; ')}`);
  }
}
