import { existsSync } from 'node:fs';
import { isIP } from 'node:net';
import type { HostCommands } from './commands';
import { findCommand } from './commands';
import { fileDns } from './dnsFile';
import { resolvconfDns, resolvectlDns } from './dnsTools';

/**
 * The network's DNS servers, applied while the agent holds the network and restored when it leaves or
 * stops. The agent calls restore() when it starts, which undoes what a crashed run left.
 */
export interface DnsManager {
  /** Applies `servers` for tunnel device `device` (an empty list restores); returns a line for the log. */
  apply(servers: string[], device: string): Promise<string>;
  restore(): Promise<void>;
}

export type DnsMethod = 'auto' | 'file' | 'resolvconf' | 'resolvectl' | 'none';

export interface DnsOptions {
  /** 'none' for agents embedded in tests in the host's namespace: they must never touch the host. */
  method: DnsMethod;
  /** For 'file' (default /etc/resolv.conf; /etc/netns/<ns>/resolv.conf for a device in a namespace). */
  resolvConf?: string;
  /** Where the original (or the device that was set) is kept until restored. */
  stateDir: string;
  host: HostCommands;
}

export const DEFAULT_RESOLV_CONF = '/etc/resolv.conf';
/** Present while systemd-resolved runs and manages the resolver. */
const RESOLVED_STUB = '/run/systemd/resolve/stub-resolv.conf';

export interface MethodProbe {
  exists(path: string): boolean;
  hasCommand(name: string): boolean;
}

const systemProbe: MethodProbe = { exists: existsSync, hasCommand: (name) => findCommand(name) !== null };

/** What 'auto' picks: systemd-resolved when it runs, else resolvconf when installed, else the file. */
export function autoMethod(probe: MethodProbe = systemProbe): Exclude<DnsMethod, 'auto'> {
  if (probe.exists(RESOLVED_STUB) && probe.hasCommand('resolvectl')) return 'resolvectl';
  if (probe.hasCommand('resolvconf')) return 'resolvconf';
  return 'file';
}

const noDns: DnsManager = {
  apply: async (servers) => `DNS: ${servers.length > 0 ? servers.join(', ') : 'none'} not applied (method none)`,
  restore: async () => {},
};

/** Refuses anything but addresses: the servers end up in resolv.conf lines and command arguments. */
function checked(manager: DnsManager): DnsManager {
  return {
    apply: (servers, device) => {
      const bad = servers.filter((s) => isIP(s) === 0);
      if (bad.length > 0) return Promise.reject(new Error(`DNS servers must be IP addresses: ${bad.join(', ')}`));
      return manager.apply(servers, device);
    },
    restore: () => manager.restore(),
  };
}

export function dnsManager(options: DnsOptions): DnsManager {
  const method = options.method === 'auto' ? autoMethod() : options.method;
  switch (method) {
    case 'none':
      return noDns;
    case 'file':
      return checked(fileDns(options.resolvConf ?? DEFAULT_RESOLV_CONF, options.stateDir));
    case 'resolvconf':
      return checked(resolvconfDns(options.host, options.stateDir));
    case 'resolvectl':
      return checked(resolvectlDns(options.host, options.stateDir));
  }
}
