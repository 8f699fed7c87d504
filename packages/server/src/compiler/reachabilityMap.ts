import { intToIp } from './ip';
import type { CompiledNetwork, MemberJson } from './model';
import { cidrRange, ReachabilityModel, type NetworkState, type Path } from './reachability';

/*
 * The reachability model over a whole network (issue 36): for every member, which sites it reaches in
 * the normal state and with each center down, and what changes between two compiled networks.
 */

/** Where traffic goes: a member's LAN prefix, its own address (a member without LAN), or the internet through the network. */
export interface Site {
  member: string;
  /** The LAN prefix, or null for the member's own address (or for the internet). */
  prefix: string | null;
  /** A deny row of the member's: the network must not carry traffic to it. */
  denied?: true;
  internet?: true;
}

export interface PairReach {
  from: string;
  to: Site;
  ok: boolean;
  /** The forward paths (several where the network balances); the first refusal when one fails. */
  paths: Path[];
}

/** The states the preview shows: every member up, and each center down on its own. */
export interface NamedState extends NetworkState {
  /** '' for the normal state, else the center that is down. */
  name: string;
}

export function statesOf(compiled: CompiledNetwork): NamedState[] {
  const centers = compiled.members.filter((m) => m.json.member_type === 'center').map((m) => m.router_name);
  return [{ name: '', down: [] }, ...centers.map((c) => ({ name: c, down: [c] }))];
}

/** The first host of a prefix: the address a site is probed at. */
const firstHost = (cidr: string) => {
  const { start, end } = cidrRange(cidr);
  return intToIp(end - start > 2 ? start + 1 : start);
};

/** A member's own address: a point's on its first tunnel to a center that is up (its others are dead). */
function ownAddressOf(m: MemberJson, state: NetworkState): string | null {
  if (m.member_type === 'point') return m.tunnels.find((t) => t.address !== null && !state.down.includes(t.center))?.address ?? null;
  return m.services[0]?.address ?? m.links[0]?.address ?? null;
}

/** Every site of the network with the address it is probed at in a state. */
export function sitesOf(compiled: CompiledNetwork, state: NetworkState): { site: Site; address: string | null }[] {
  const out: { site: Site; address: string | null }[] = [];
  for (const { router_name: member, json } of compiled.members) {
    for (const prefix of json.lan) out.push({ site: { member, prefix }, address: firstHost(prefix) });
    for (const row of json.quagga.prefix_list) if (row.action === 'deny') out.push({ site: { member, prefix: row.prefix, denied: true }, address: firstHost(row.prefix) });
    if (json.lan.length === 0) out.push({ site: { member, prefix: null }, address: ownAddressOf(json, state) });
    if (json.default_route.mode === 'advertise') out.push({ site: { member, prefix: null, internet: true }, address: null });
  }
  return out;
}

/**
 * Which site each member reaches in one state: from a member's LAN (or the member itself) to every
 * other member's sites, and to the internet for a member that receives the default route.
 */
export function reachabilityIn(compiled: CompiledNetwork, state: NetworkState): PairReach[] {
  const model = new ReachabilityModel(compiled, state);
  const sites = sitesOf(compiled, state);
  const out: PairReach[] = [];
  for (const { router_name: from, json } of compiled.members) {
    const back = json.lan[0] ? firstHost(json.lan[0]) : null;
    for (const { site, address } of sites) {
      if (site.member === from || site.internet || address === null) continue;
      const r = model.reaches(from, { address }, back);
      out.push({ from, to: site, ok: r.ok, paths: r.forward });
    }
    // One entry for the internet, whichever advertiser carries it.
    if (json.default_route.mode === 'receive' && sites.some(({ site }) => site.internet && site.member !== from)) {
      const r = model.reaches(from, { internet: true }, back);
      out.push({ from, to: { member: '', prefix: null, internet: true }, ok: r.ok, paths: r.forward });
    }
  }
  return out;
}

export const siteKey = (s: Site) => (s.internet ? 'internet' : `${s.member}\n${s.prefix ?? ''}`);
const pairKey = (p: PairReach) => `${p.from}\n${siteKey(p.to)}`;

export interface ReachChange {
  state: string;
  from: string;
  to: Site;
  /** true: reached after the change and not before; false: the other way round. */
  gained: boolean;
}

/**
 * The pairs whose reachability differs between two compiled networks, state by state (the states of
 * the network after the change). A pair only one side has (a member added or removed) counts when it is
 * reached on that side.
 */
export function compareReachability(before: CompiledNetwork, after: CompiledNetwork): ReachChange[] {
  const out: ReachChange[] = [];
  const beforeStates = new Map(statesOf(before).map((s) => [s.name, s]));
  for (const state of statesOf(after)) {
    const was = new Map(reachabilityIn(before, beforeStates.get(state.name) ?? state).map((p) => [pairKey(p), p]));
    const now = new Map(reachabilityIn(after, state).map((p) => [pairKey(p), p]));
    for (const [key, p] of now) {
      const old = was.get(key);
      if ((old?.ok ?? false) !== p.ok) out.push({ state: state.name, from: p.from, to: p.to, gained: p.ok });
    }
    for (const [key, p] of was) if (!now.has(key) && p.ok) out.push({ state: state.name, from: p.from, to: p.to, gained: false });
  }
  return out;
}
