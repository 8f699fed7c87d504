import { CommandError, type HostCommands } from './commands';

/**
 * The routing protocol number the agent stamps on its routes (`proto 157`; /etc/iproute2/rt_protos
 * leaves 0-255 free above the kernel's and the daemons' numbers), so they are found again after a
 * crash and nothing else's is touched.
 */
export const ROUTE_PROTOCOL = 157;

/** The kernel's main routing table, the default of every call here. */
export const MAIN_TABLE = 254;

export type RouteType = 'unicast' | 'unreachable' | 'blackhole' | 'prohibit' | 'throw';

/** One of the agent's routes as the kernel holds it. */
export interface OwnRoute {
  /** 'a.b.c.d/m'; the default route is 0.0.0.0/0, a host route /32. */
  prefix: string;
  /** The device, or each nexthop's for a multipath route; none for an unreachable route. */
  devs: string[];
  via: string | null;
  type: RouteType;
  metric: number;
}

export interface RouteSpec {
  prefix: string;
  /** One device, or several for a multipath route of equal weights. */
  devs: string[];
  /** A gateway, for a single device only. */
  via?: string;
  metric: number;
  table?: number;
}

/** What the kernel would use now for an address. */
export interface RouteChoice {
  dev: string;
  via: string | null;
  src: string | null;
}

interface JsonRoute {
  dst: string;
  type?: RouteType;
  dev?: string;
  gateway?: string;
  metric?: number;
  nexthops?: { dev: string }[];
}

const HOST_PREFIX_LENGTH = 32;
const DEFAULT_PREFIX = '0.0.0.0/0';

function tableArgs(table: number | undefined): string[] {
  return table === undefined ? [] : ['table', String(table)];
}

function normalisePrefix(dst: string): string {
  if (dst === 'default') return DEFAULT_PREFIX;
  return dst.includes('/') ? dst : `${dst}/${HOST_PREFIX_LENGTH}`;
}

/** A table other than main comes to exist with its first route and goes with its last. */
function isMissingTable(e: unknown): boolean {
  return e instanceof CommandError && /FIB table does not exist/.test(e.stderr);
}

/** The routes with the agent's protocol in the main table (or `table`). */
export async function readOwnRoutes(host: HostCommands, table?: number): Promise<OwnRoute[]> {
  let out: string;
  try {
    out = await host.run('ip', ['-j', '-4', 'route', 'show', 'proto', String(ROUTE_PROTOCOL), ...tableArgs(table)]);
  } catch (e) {
    if (isMissingTable(e)) return [];
    throw e;
  }
  const routes = JSON.parse(out || '[]') as JsonRoute[];
  return routes.map((r) => ({
    prefix: normalisePrefix(r.dst),
    devs: r.nexthops ? r.nexthops.map((n) => n.dev) : r.dev ? [r.dev] : [],
    via: r.gateway ?? null,
    type: r.type ?? 'unicast',
    // ip leaves the metric out when it is 0.
    metric: r.metric ?? 0,
  }));
}

/** Adds the route, or replaces the one with the same prefix and metric. */
export async function replaceRoute(host: HostCommands, route: RouteSpec): Promise<void> {
  const { prefix, devs, via, metric, table } = route;
  if (devs.length === 0) throw new Error(`route ${prefix}: no device`);
  if (via && devs.length > 1) throw new Error(`route ${prefix}: a gateway needs a single device, not ${devs.join(', ')}`);
  const common = ['proto', String(ROUTE_PROTOCOL), 'metric', String(metric), ...tableArgs(table)];
  const path = devs.length === 1 ? ['dev', devs[0]!, ...(via ? ['via', via] : [])] : devs.flatMap((d) => ['nexthop', 'dev', d]);
  // A multipath route's nexthops come last: ip reads everything after the first `nexthop` as nexthops.
  const args = devs.length === 1 ? [prefix, ...path, ...common] : [prefix, ...common, ...path];
  await host.run('ip', ['-4', 'route', 'replace', ...args]);
}

/** A route that refuses its prefix (ICMP unreachable) rather than letting it fall to a shorter route. */
export async function replaceUnreachable(host: HostCommands, prefix: string, metric: number, table?: number): Promise<void> {
  await host.run('ip', ['-4', 'route', 'replace', 'unreachable', prefix, 'proto', String(ROUTE_PROTOCOL), 'metric', String(metric), ...tableArgs(table)]);
}

/** Deletes the agent's route of this prefix and metric; nothing when it is already gone. */
export async function deleteRoute(host: HostCommands, route: { prefix: string; metric: number; table?: number }): Promise<void> {
  const { prefix, metric, table } = route;
  // The kernel reads metric 0 as "any metric": without this check, deleting a metric-0 route that is
  // gone would delete the same prefix's route of another metric.
  const own = await readOwnRoutes(host, table);
  if (!own.some((r) => r.prefix === normalisePrefix(prefix) && r.metric === metric)) return;
  try {
    await host.run('ip', ['-4', 'route', 'del', prefix, 'proto', String(ROUTE_PROTOCOL), 'metric', String(metric), ...tableArgs(table)]);
  } catch (e) {
    // Gone meanwhile (its device went away).
    if (!(e instanceof CommandError && /No such process/.test(e.stderr))) throw e;
  }
}

/** Deletes every route with the agent's protocol in the main table (or `table`), of every type. */
export async function flushOwnRoutes(host: HostCommands, table?: number): Promise<void> {
  try {
    await host.run('ip', ['-4', 'route', 'flush', 'proto', String(ROUTE_PROTOCOL), ...tableArgs(table)]);
  } catch (e) {
    if (!isMissingTable(e)) throw e;
  }
}

/** The kernel's choice for `address` now (device, gateway, source), or null when it has no route. */
export async function routeGet(host: HostCommands, address: string): Promise<RouteChoice | null> {
  let out: string;
  try {
    out = await host.run('ip', ['-j', '-4', 'route', 'get', address]);
  } catch (e) {
    if (e instanceof CommandError && /unreachable|No route to host|Permission denied|Invalid argument/.test(e.stderr)) return null;
    throw e;
  }
  const [r] = JSON.parse(out) as { dev: string; gateway?: string; prefsrc?: string }[];
  if (!r) return null;
  return { dev: r.dev, via: r.gateway ?? null, src: r.prefsrc ?? null };
}
