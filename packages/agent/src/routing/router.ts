import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { HostCommands } from '../host/commands';
import type { DnsManager } from '../host/dns';
import { TUNNEL_DEVICE_PREFIX } from '../host/names';
import { readNat, setNat } from '../host/nat';
import { flushOwnRoutes, readOwnRoutes, replaceRoute, replaceUnreachable, ROUTE_PROTOCOL, routeGet, type OwnRoute } from '../host/routes';
import { deleteRule, ensureRule, readOwnRules, type PolicyRule } from '../host/rules';
import { enableForwarding, looseReversePath, multipathHashL4 } from '../host/sysctl';
import type { Desired, Target } from './select';

/*
 * Makes the kernel hold what desiredState() says, and nothing else of the agent's: its routes (protocol
 * 157, one metric), the received default route as two /1 routes with a host route around it for every
 * address the agent itself must reach through the uplink (the gateway, every center and POP it dials),
 * a center's transit tables and the rules that send tunnel traffic there, masquerading, forwarding and
 * DNS. Each call reads the kernel's state first, so a route that went with its device is put back.
 */

/** The metric of every route the agent installs: above a connected route's, below a routing daemon's default. */
export const ROUTE_METRIC = 50;
/** The two halves of 0.0.0.0/0: more specific than the member's own default route, which stays for the uplink. */
const HALVES = ['0.0.0.0/1', '128.0.0.0/1'];
/** Rules of the agent: for a device hlN, the suppress rule at FIRST + 2N and the transit lookup right after. */
const RULE_BASE = 20000;

export interface RouterOptions {
  host: HostCommands;
  dns: DnsManager;
  log: (line: string) => void;
  /** Addresses or names the agent itself must keep reaching through the uplink (the gateway's host). */
  controlHosts: string[];
}

export class Router {
  private forwardingOn = false;
  private multipathOn = false;
  private looseOn = false;
  private readonly names = new NameCache();
  private natKey: string | null | undefined;
  private dnsKey = '';
  private readonly bypass = new Map<string, { dev: string; via: string | null }>();
  private knownTables = new Set<number>();

  constructor(private readonly options: RouterOptions) {}

  /** Removes what an earlier run left (after a crash): routes, rules, transit tables, masquerading, DNS. */
  async clean(): Promise<void> {
    const { host } = this.options;
    const rules = await readOwnRules(host);
    for (const table of new Set(rules.map((r) => r.table))) await flushOwnRoutes(host, table);
    for (const r of rules) await deleteRule(host, r);
    await flushOwnRoutes(host);
    if ((await readNat(host)) !== null) await setNat(host, null);
    await this.options.dns.restore();
    this.natKey = null;
    this.dnsKey = '';
    this.bypass.clear();
  }

  /** Applies the desired state; returns what could not be applied (each a line), having applied the rest. */
  async apply(desired: Desired, dialled: string[], devices: string[]): Promise<string[]> {
    const problems: string[] = [];
    const step = async (what: string, work: () => Promise<void>) => {
      try {
        await work();
      } catch (e) {
        problems.push(`${what}: ${e instanceof Error ? e.message : String(e)}`.slice(0, 400));
      }
    };
    await step('forwarding', () => this.kernelSettings(desired));
    await step('routes', () => this.mainRoutes(desired, dialled));
    await step('transit', () => this.transit(desired));
    await step('masquerading', () => this.nat(desired));
    await step('DNS', () => this.dns(desired, devices));
    return problems;
  }

  private async kernelSettings(desired: Desired): Promise<void> {
    const { host, log } = this.options;
    if (desired.forwarding && !this.forwardingOn) {
      const change = await enableForwarding(host);
      log(change ? 'IP forwarding turned on: this member routes for others (net.ipv4.ip_forward 0 → 1)' : 'IP forwarding already on: this member routes for others');
      this.forwardingOn = true;
    }
    // The kernel filters by the higher of `all` and the device's value, so `all` loose covers every tunnel.
    if ((desired.forwarding || desired.balance) && !this.looseOn) {
      for (const c of await looseReversePath(host, [])) log(`reverse-path filter made loose for replies on other paths: ${c.key} ${c.from} → ${c.to}`);
      this.looseOn = true;
    }
    if (desired.balance && !this.multipathOn) {
      const change = await multipathHashL4(host);
      if (change) log(`multipath balanced per flow: ${change.key} ${change.from} → ${change.to}`);
      this.multipathOn = true;
    }
  }

  private async mainRoutes(desired: Desired, dialled: string[]): Promise<void> {
    const { host } = this.options;
    const want = new Map<string, { target: Target; via?: string }>();
    for (const [prefix, target] of desired.routes) want.set(prefix, { target });
    if (desired.defaultVia) {
      for (const [address, b] of await this.bypassRoutes(dialled)) want.set(`${address}/32`, { target: [b.dev], ...(b.via ? { via: b.via } : {}) });
      for (const half of HALVES) want.set(half, { target: desired.defaultVia });
    } else {
      this.bypass.clear();
    }
    const current = new Map((await readOwnRoutes(host)).filter((r) => r.metric === ROUTE_METRIC).map((r) => [r.prefix, r]));
    // One `ip -batch` for all the changes: a center of thousands of points changes thousands of routes at once.
    const commands: string[] = [];
    for (const [prefix, w] of want) {
      if (same(current.get(prefix), w.target, w.via)) continue;
      commands.push(routeCommand(prefix, w.target, w.via));
    }
    for (const prefix of current.keys()) if (!want.has(prefix)) commands.push(`route del ${prefix} proto ${ROUTE_PROTOCOL} metric ${ROUTE_METRIC}`);
    if (commands.length > 0) await host.run('ip', ['-4', '-force', '-batch', '-'], `${commands.join('\n')}\n`);
  }

  /**
   * Where each address the agent must reach outside the tunnels goes now: decided once, before the
   * default route moves into a tunnel, from the kernel's own choice, or the uplink's default route when
   * the kernel already sends it into a tunnel. Names are resolved in the background (a slow resolver
   * never holds routing up); an address known since is added at the next run.
   */
  private async bypassRoutes(dialled: string[]): Promise<Map<string, { dev: string; via: string | null }>> {
    const { host } = this.options;
    const addresses = new Set<string>();
    for (const name of [...this.options.controlHosts, ...dialled]) {
      if (isIP(name) === 4) addresses.add(name);
      else if (name && isIP(name) === 0) for (const a of this.names.lookup(name)) addresses.add(a);
    }
    let uplink: { dev: string; via: string | null } | null | undefined;
    for (const address of addresses) {
      if (this.bypass.has(address) || address.startsWith('127.')) continue;
      const choice = await routeGet(host, address);
      if (choice && !choice.dev.startsWith(TUNNEL_DEVICE_PREFIX)) {
        this.bypass.set(address, { dev: choice.dev, via: choice.via });
        continue;
      }
      if (uplink === undefined) uplink = await uplinkDefault(host);
      if (uplink) this.bypass.set(address, uplink);
    }
    for (const address of [...this.bypass.keys()]) if (!addresses.has(address)) this.bypass.delete(address);
    return this.bypass;
  }

  private async transit(desired: Desired): Promise<void> {
    const { host } = this.options;
    const wantRules: PolicyRule[] = [];
    const tables = new Set<number>();
    for (const t of desired.transit) {
      for (const side of [t.fromTunnels, t.fromLinks]) {
        tables.add(side.table);
        await this.transitTable(side.table, side.target);
        for (const iif of side.iifs) {
          const n = Number(iif.slice(TUNNEL_DEVICE_PREFIX.length));
          if (!Number.isInteger(n)) continue;
          // The network's own prefixes by the main table (its default routes ignored), the rest by transit.
          wantRules.push({ iif, table: 254, priority: RULE_BASE + 2 * n, suppressPrefixLength: 0 }, { iif, table: side.table, priority: RULE_BASE + 2 * n + 1 });
        }
      }
    }
    const key = (r: PolicyRule) => `${r.priority}/${r.iif}/${r.table}/${r.suppressPrefixLength ?? ''}`;
    const have = await readOwnRules(host);
    const haveKeys = new Set(have.map(key));
    const wantKeys = new Set(wantRules.map(key));
    for (const r of have) if (!wantKeys.has(key(r))) await deleteRule(host, r);
    for (const r of wantRules) if (!haveKeys.has(key(r))) await ensureRule(host, r);
    for (const table of this.knownTables) if (!tables.has(table)) await flushOwnRoutes(host, table);
    this.knownTables = tables;
  }

  private async transitTable(table: number, target: Target | 'local'): Promise<void> {
    const { host } = this.options;
    const current = (await readOwnRoutes(host, table)).find((r) => r.prefix === '0.0.0.0/0');
    if (target === 'local') {
      if (current) await flushOwnRoutes(host, table);
      return;
    }
    if (same(current, target)) return;
    if (target === 'unreachable') await replaceUnreachable(host, '0.0.0.0/0', ROUTE_METRIC, table);
    else await replaceRoute(host, { prefix: '0.0.0.0/0', devs: target, metric: ROUTE_METRIC, table });
  }

  private async nat(desired: Desired): Promise<void> {
    const key = desired.nat ? JSON.stringify([...desired.nat].sort()) : null;
    if (key === this.natKey) return;
    await setNat(this.options.host, desired.nat ? { internal: desired.nat } : null);
    if (desired.nat) this.options.log('masquerading traffic from the tunnels that leaves for the internet: this member advertises the default route');
    this.natKey = key;
  }

  private async dns(desired: Desired, devices: string[]): Promise<void> {
    const device = devices[0] ?? '';
    const key = desired.dns.length > 0 ? `${desired.dns.join(',')}@${device}` : '';
    if (key === this.dnsKey || (desired.dns.length > 0 && !device)) return;
    this.options.log(await this.options.dns.apply(desired.dns, device));
    this.dnsKey = key;
  }

  /** Undoes everything (the agent stops, or leaves its last network). */
  async stop(): Promise<void> {
    await this.clean();
    this.forwardingOn = false;
    this.multipathOn = false;
    this.looseOn = false;
    this.knownTables.clear();
  }
}

/** The `ip -batch` line that makes a route so. */
function routeCommand(prefix: string, target: Target, via?: string): string {
  const tail = `proto ${ROUTE_PROTOCOL} metric ${ROUTE_METRIC}`;
  if (target === 'unreachable') return `route replace unreachable ${prefix} ${tail}`;
  if (target.length === 1) return `route replace ${prefix} dev ${target[0]}${via ? ` via ${via}` : ''} ${tail}`;
  return `route replace ${prefix} ${tail} ${target.map((d) => `nexthop dev ${d}`).join(' ')}`;
}

/** The member's own default route (not the agent's): where the uplink goes. */
async function uplinkDefault(host: HostCommands): Promise<{ dev: string; via: string | null } | null> {
  const routes = JSON.parse((await host.run('ip', ['-j', '-4', 'route', 'show', 'default'])) || '[]') as { dev?: string; gateway?: string; protocol?: string }[];
  const own = routes.find((r) => r.dev && !r.dev.startsWith(TUNNEL_DEVICE_PREFIX));
  return own ? { dev: own.dev!, via: own.gateway ?? null } : null;
}

/** Names resolved in the background, kept a minute: a lookup never waits. */
class NameCache {
  private readonly known = new Map<string, { addresses: string[]; at: number }>();
  private readonly pending = new Set<string>();

  lookup(name: string): string[] {
    const hit = this.known.get(name);
    if ((!hit || Date.now() - hit.at > NAME_TTL_MS) && !this.pending.has(name)) {
      this.pending.add(name);
      void lookup(name, { family: 4, all: true })
        .then((found) => this.known.set(name, { addresses: found.map((f) => f.address), at: Date.now() }))
        .catch(() => this.known.set(name, { addresses: [], at: Date.now() }))
        .finally(() => this.pending.delete(name));
    }
    return hit?.addresses ?? [];
  }
}
const NAME_TTL_MS = 60_000;

function same(route: OwnRoute | undefined, target: Target, via?: string): boolean {
  if (!route) return false;
  if (target === 'unreachable') return route.type === 'unreachable';
  return route.type === 'unicast' && (route.via ?? undefined) === via && [...route.devs].sort().join(',') === [...target].sort().join(',');
}
