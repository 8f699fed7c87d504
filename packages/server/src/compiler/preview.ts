import { LIMITS, PREVIEW_MEMBERS_SHOWN, PREVIEW_REACH_SHOWN, type PreviewAnswer, type PreviewReach } from '@hublink/contract';
import type { Db } from '../db/connect';
import { ipToInt } from './ip';
import { loadNetwork } from './load';
import type { CompiledNetwork } from './model';
import { cidrRange } from './reachability';
import { compareReachability, type ReachChange } from './reachabilityMap';
import { compileRemembered, storedForm } from './versions';

/*
 * The network's side of a settings preview (issue 36, core/preview.ts runs it): the network compiled
 * inside the change's transaction before and after the change, and what differs between the two:
 * members whose configuration changes, pairs of members and LANs that gain or lose reachability, and
 * whether the caller's own member is cut off.
 */

export async function networkSnapshot(db: Db, tenantId: number, networkId: number): Promise<CompiledNetwork | null> {
  const loaded = await loadNetwork(db, tenantId, networkId);
  return loaded ? compileRemembered(tenantId, networkId, loaded.input) : null;
}

const EMPTY: CompiledNetwork = { network_number: '', members: [] };

/** The member whose LAN or own address holds the caller's address, or null. */
function memberAt(compiled: CompiledNetwork, ip: string): string | null {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(ip)) return null;
  const address = ipToInt(ip);
  const holds = (cidr: string) => {
    const r = cidrRange(cidr);
    return address >= r.start && address < r.end;
  };
  for (const { router_name, json } of compiled.members) {
    if (json.lan.some(holds) || (json.member_type === 'point' && json.tunnels.some((t) => t.address === ip))) return router_name;
  }
  return null;
}

const asReach = (c: ReachChange): PreviewReach => {
  // The path shown: the first that fails, there or back; else the first there.
  const failed = c.paths.find((p) => !p.end.delivered) ?? c.reply.find((p) => !p.end.delivered);
  const shown = failed ?? c.paths[0];
  return {
    state: c.state,
    from: c.from,
    to: { member: c.to.member, prefix: c.to.prefix, internet: c.to.internet === true, denied: c.to.denied === true },
    gained: c.gained,
    path: shown ? shown.hops.map((h) => h.member) : [],
    stop: failed && !failed.end.delivered ? { at: failed.end.at, why: failed.end.why, back: !c.paths.includes(failed) } : null,
  };
};

export async function networkEffect(beforeOrNull: CompiledNetwork | null, afterOrNull: CompiledNetwork | null, caller: { ip: string }): Promise<PreviewAnswer> {
  const before = beforeOrNull ?? EMPTY;
  const after = afterOrNull ?? EMPTY;
  const was = new Map(before.members.map((m) => [m.router_name, storedForm(m).hash]));
  const members: PreviewAnswer['members'] = [];
  for (const m of after.members) {
    const hash = was.get(m.router_name);
    if (hash === undefined) members.push({ router_name: m.router_name, change: 'added' });
    else if (hash !== storedForm(m).hash) members.push({ router_name: m.router_name, change: 'changed' });
  }
  const now = new Set(after.members.map((m) => m.router_name));
  for (const name of was.keys()) if (!now.has(name)) members.push({ router_name: name, change: 'removed' });

  const viewer = memberAt(before, caller.ip);
  const large = Math.max(before.members.length, after.members.length) > LIMITS.previewReachMaxMembers;
  // Nothing compiled differs: nothing can reach differently.
  const changes = large || members.length === 0 ? [] : await compareReachability(before, after);
  // Losses first, then the normal state before the failure states.
  changes.sort((a, b) => Number(a.gained) - Number(b.gained) || Number(a.state !== '') - Number(b.state !== ''));
  const cut =
    viewer !== null &&
    (!now.has(viewer) || changes.some((c) => c.state === '' && !c.gained && (c.from === viewer || c.to.member === viewer)));
  return {
    members: members.slice(0, PREVIEW_MEMBERS_SHOWN),
    member_count: members.length,
    reach: large ? null : changes.slice(0, PREVIEW_REACH_SHOWN).map(asReach),
    reach_count: changes.length,
    viewer: viewer === null ? null : { router_name: viewer, cut },
  };
}
