import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HostCommands } from './commands';
import type { DnsManager } from './dns';

/** The device whose DNS the agent set through resolvconf or resolvectl, so the next start can undo it after a crash. */
export const APPLIED_DNS_DEVICE = 'dns.hublink-device';

/** The per-device DNS of a system tool: set for a device, and undone. */
interface DeviceDns {
  name: string;
  set(servers: string[], device: string): Promise<void>;
  revert(device: string): Promise<void>;
}

/** Remembers the device in `stateDir` before setting it, and undoes the one remembered. */
function recordedDns(tool: DeviceDns, stateDir: string): DnsManager {
  const record = join(stateDir, APPLIED_DNS_DEVICE);
  const applied = () => readFile(record, 'utf8').catch(() => null);

  async function restore(): Promise<void> {
    const device = await applied();
    if (device === null) return;
    await tool.revert(device);
    await rm(record, { force: true });
  }

  return {
    async apply(servers, device) {
      if (servers.length === 0 || (await applied()) !== device) await restore();
      if (servers.length === 0) return `DNS: ${tool.name} settings removed`;
      await writeFile(record, device);
      await tool.set(servers, device);
      return `DNS: ${servers.join(', ')} for ${device} through ${tool.name}`;
    },
    restore,
  };
}

/** The interface record resolvconf keeps for the agent's servers on a device. */
function resolvconfRecord(device: string): string {
  return `${device}.hublink`;
}

/** Debian's resolvconf or openresolv: a record of nameserver lines per interface. */
export function resolvconfDns(host: HostCommands, stateDir: string): DnsManager {
  return recordedDns(
    {
      name: 'resolvconf',
      set: async (servers, device) => {
        await host.run('resolvconf', ['-a', resolvconfRecord(device)], servers.map((s) => `nameserver ${s}\n`).join(''));
      },
      revert: async (device) => {
        await host.run('resolvconf', ['-d', resolvconfRecord(device)]);
      },
    },
    stateDir,
  );
}

/** The routing domain '~.': every name is resolved through this device's servers. */
const EVERY_DOMAIN = '~.';

async function deviceExists(host: HostCommands, device: string): Promise<boolean> {
  return host.run('ip', ['link', 'show', 'dev', device]).then(
    () => true,
    () => false,
  );
}

/** systemd-resolved: the device's servers, used for every name. */
export function resolvectlDns(host: HostCommands, stateDir: string): DnsManager {
  return recordedDns(
    {
      name: 'resolvectl',
      set: async (servers, device) => {
        await host.run('resolvectl', ['dns', device, ...servers]);
        await host.run('resolvectl', ['domain', device, EVERY_DOMAIN]);
      },
      revert: async (device) => {
        try {
          await host.run('resolvectl', ['revert', device]);
        } catch (e) {
          // A device that is gone took its settings with it (openvpn ended with the agent).
          if (await deviceExists(host, device)) throw e;
        }
      },
    },
    stateDir,
  );
}
