import { intToIp, ipToInt } from './ip';
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
  /** The address the site is probed at (null for the internet), and where the answer goes back to (null: the address the packet left by). */
  address: string | null;
  back: string | null;
  ok: boolean;
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

/** One side of a comparison in one state: its model and its sites, each with its parsed address and key. */
interface Side {
  model: ReachabilityModel;
  members: Map<string, MemberJson>;
  sites: { site: Site; address: string | null; at: number | null; key: string }[];
  hasInternet: (from: string) => boolean;
}

function sideOf(compiled: CompiledNetwork, state: NetworkState, model = new ReachabilityModel(compiled, state)): Side {
  const sites = sitesOf(compiled, state).map((s) => ({ ...s, at: s.address === null ? null : ipToInt(s.address), key: siteKey(s.site) }));
  const advertisers = sites.filter((s) => s.site.internet).map((s) => s.site.member);
  return {
    model,
    members: new Map(compiled.members.map((m) => [m.router_name, m.json])),
    sites,
    hasInternet: (from) => advertisers.some((a) => a !== from),
  };
}

/** The address a member's answers come from: its first LAN's first host, or (null) its own address. */
const backOf = (json: MemberJson): string | null => (json.lan[0] ? firstHost(json.lan[0]) : null);
const backAtOf = (json: MemberJson): number | null => {
  const back = backOf(json);
  return back === null ? null : ipToInt(back);
};

/** What one member reaches in a side's state: every other member's sites, and the internet for a receiver of the default route. */
function rowOf(side: Side, from: string, json: MemberJson): (PairReach & { key: string })[] {
  const back = backOf(json);
  const backAt = back === null ? null : ipToInt(back);
  const out: (PairReach & { key: string })[] = [];
  for (const { site, address, at, key } of side.sites) {
    if (site.member === from || site.internet || address === null || at === null) continue;
    out.push({ from, to: site, address, back, ok: side.model.reachesAddress(from, at, backAt, site.member), key });
  }
  // One entry for the internet, whichever advertiser carries it.
  if (json.default_route.mode === 'receive' && side.hasInternet(from)) {
    out.push({ from, to: INTERNET_SITE, address: null, back, ok: side.model.reaches(from, { internet: true }, back).ok, key: siteKey(INTERNET_SITE) });
  }
  return out;
}

const INTERNET_SITE: Site = { member: '', prefix: null, internet: true };

/**
 * Which site each member reaches in one state: from a member's LAN (or the member itself) to every
 * other member's sites, and to the internet for a member that receives the default route. Answers
 * only yes or no (the paths of a pair: pathsOf).
 */
export function reachabilityIn(compiled: CompiledNetwork, state: NetworkState, model = new ReachabilityModel(compiled, state)): PairReach[] {
  const side = sideOf(compiled, state, model);
  return compiled.members.flatMap((m) => rowOf(side, m.router_name, m.json).map(({ key: _, ...pair }) => pair));
}

/** The ways a pair's packets go (several where the network balances), and where they stop when they do. */
export const pathsOf = (model: ReachabilityModel, pair: PairReach): Path[] => model.paths(pair.from, pair.address === null ? { internet: true } : { address: pair.address });

/** A pair's paths there and the answers' paths back. */
const bothWays = (model: ReachabilityModel, pair: PairReach): { paths: Path[]; reply: Path[] } => {
  const r = model.reaches(pair.from, pair.address === null ? { internet: true } : { address: pair.address }, pair.back);
  return { paths: r.forward, reply: r.reply };
};

export const siteKey = (s: Site) => (s.internet ? 'internet' : `${s.member}\n${s.prefix ?? ''}`);

export interface ReachChange {
  state: string;
  from: string;
  to: Site;
  /** true: reached after the change and not before; false: the other way round. */
  gained: boolean;
  /** The pair's paths after the change, and the answers' (empty for a pair whose member is gone). */
  paths: Path[];
  reply: Path[];
}

/** Lets the event loop run between pieces of a long comparison (a network of hundreds of members takes seconds). */
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));
const SLICE_MS = 10;

/**
 * The pairs whose reachability differs between two compiled networks, state by state (the states of
 * the network after the change). A pair only one side has (a member added or removed) counts when it is
 * reached on that side. Works member by member and yields to the event loop every few milliseconds.
 */
export async function compareReachability(before: CompiledNetwork, after: CompiledNetwork, pause: () => Promise<void> = yieldToLoop): Promise<ReachChange[]> {
  const out: ReachChange[] = [];
  const beforeStates = new Map(statesOf(before).map((s) => [s.name, s]));
  let slice = Date.now();
  const breathe = async () => {
    if (Date.now() - slice < SLICE_MS) return;
    await pause();
    slice = Date.now();
  };
  for (const state of statesOf(after)) {
    const now = sideOf(after, state);
    const was = sideOf(before, beforeStates.get(state.name) ?? state);
    for (const side of [now, was]) {
      for (const member of side.members.keys()) {
        side.model.prepare(member);
        await breathe();
      }
    }
    for (const [from, json] of now.members) {
      const old = was.members.get(from);
      const oldRow = old ? rowOf(was, from, old) : [];
      const reached = new Map(oldRow.map((p) => [p.key, p.ok]));
      const row = rowOf(now, from, json);
      // A site only one side lists (a member's own address is one while it has no LAN) still has an
      // address on the other: whether that side reached it there decides.
      const [oldBackAt, backAt] = [old ? backAtOf(old) : null, backAtOf(json)];
      const reachedBefore = (p: PairReach & { key: string }) =>
        reached.get(p.key) ?? (old !== undefined && p.address !== null && was.members.has(p.to.member) && was.model.reachesAddress(from, ipToInt(p.address), oldBackAt, p.to.member));
      for (const p of row) if (reachedBefore(p) !== p.ok) out.push({ state: state.name, from, to: p.to, gained: p.ok, ...bothWays(now.model, p) });
      const kept = new Set(row.map((p) => p.key));
      const reachedNow = (p: PairReach) => p.address !== null && now.members.has(p.to.member) && now.model.reachesAddress(from, ipToInt(p.address), backAt, p.to.member);
      // A site that is gone: where packets to its old address go now.
      for (const p of oldRow) if (p.ok && !kept.has(p.key) && !reachedNow(p)) out.push({ state: state.name, from, to: p.to, gained: false, ...bothWays(now.model, p) });
      await breathe();
    }
    for (const [from, json] of was.members) {
      if (now.members.has(from)) continue;
      for (const p of rowOf(was, from, json)) if (p.ok) out.push({ state: state.name, from, to: p.to, gained: false, paths: [], reply: [] });
      await breathe();
    }
  }
  return out;
}
