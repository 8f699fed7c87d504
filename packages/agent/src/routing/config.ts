import type { RouteGroup, RouteVia, Timers } from '@hublink/contract';

/*
 * The part of a member's compiled configuration (packages/server/src/compiler/model.ts, CommonConfig,
 * CenterConfig.transit) that says where its traffic goes, read defensively: it comes over the wire, so
 * a missing or malformed field reads as nothing (no route), never as a crash.
 */

export type Via = RouteVia;
export type Group = RouteGroup;
export type { Timers };

export interface RoutingConfig {
  center: boolean;
  lan: string[];
  blocked: string[];
  dns: string[];
  forwarding: boolean;
  balance: boolean;
  nat: boolean;
  timers: Timers;
  routes: Group[];
  /** A center's transit candidates; null on a point. */
  transit: Via[] | null;
  /** The compiled `dynamic` section (FRR), or null. */
  dynamic: Record<string, unknown> | null;
  /** Every prefix of the network (LANs, VPN subnets, links): never masqueraded. */
  internal: string[];
}

/** What the agent falls back to when a configuration carries no timers (an older server). */
export const DEFAULT_TIMERS: Timers = { ping: 1, ping_restart: 5, hold_down: 5, hold_down_max: 30, flap_window: 120 };

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const PREFIX = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const isPrefix = (v: unknown): v is string => typeof v === 'string' && PREFIX.test(v) && Number(v.split('/')[1]) <= 32 && v.split('/')[0]!.split('.').every((o) => Number(o) <= 255);
const prefixes = (v: unknown) => arr(v).filter(isPrefix);
const num = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
const IPV4 = /^(\d{1,3})(\.\d{1,3}){3}$/;

function via(v: unknown): Via | null {
  const o = obj(v);
  if (typeof o.via !== 'string' || !/^[A-Za-z0-9._-]+$/.test(o.via)) return null;
  return { via: o.via, client: typeof o.client === 'string' ? o.client : null, cost: num(o.cost, 0), rank: num(o.rank, 0) };
}

const vias = (v: unknown) => arr(v).map(via).filter((x): x is Via => x !== null);

export function routingOf(config: Record<string, unknown>): RoutingConfig {
  const t = obj(config.timers);
  const dynamic = obj(config.dynamic);
  return {
    center: config.member_type === 'center',
    lan: prefixes(config.lan),
    blocked: prefixes(config.blocked),
    dns: arr(config.dns).filter((d): d is string => typeof d === 'string' && IPV4.test(d)),
    forwarding: config.forwarding === true,
    balance: config.balance === true,
    nat: config.nat === true,
    timers: {
      ping: num(t.ping, DEFAULT_TIMERS.ping),
      ping_restart: num(t.ping_restart, DEFAULT_TIMERS.ping_restart),
      hold_down: num(t.hold_down, DEFAULT_TIMERS.hold_down),
      hold_down_max: num(t.hold_down_max, DEFAULT_TIMERS.hold_down_max),
      flap_window: num(t.flap_window, DEFAULT_TIMERS.flap_window),
    },
    routes: arr(config.routes).map((g) => ({ prefixes: prefixes(obj(g).prefixes), via: vias(obj(g).via) })),
    transit: config.member_type === 'center' ? vias(config.transit) : null,
    dynamic: Object.keys(dynamic).length > 0 ? dynamic : null,
    internal: [
      ...prefixes(config.lan),
      ...prefixes(config.blocked),
      ...arr(config.routes).flatMap((g) => prefixes(obj(g).prefixes)).filter((p) => !p.endsWith('/0')),
      ...prefixes(arr(config.services).map((s) => obj(s).subnet)),
      ...prefixes(arr(config.links).map((l) => obj(l).segment)),
      ...prefixes(arr(config.tunnels).map((t) => obj(t).subnet)),
    ],
  };
}
