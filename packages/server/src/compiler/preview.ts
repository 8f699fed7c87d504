import { createHash } from 'node:crypto';
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

/** Effects worked out lately, by the two networks' fingerprints: a save right after its preview finds its effect here. */
const effects = new Map<string, { members: PreviewAnswer['members']; changes: ReachChange[] }>();
const EFFECTS_MAX = 16;

/** A compiled network's fingerprint: its members' stored hashes, which the comparison needs anyway. */
const fingerprint = (hashes: Map<string, string>) => createHash('sha256').update(JSON.stringify([...hashes])).digest('hex');

export async function networkEffect(beforeOrNull: CompiledNetwork | null, afterOrNull: CompiledNetwork | null, caller: { ip: string }): Promise<PreviewAnswer> {
  const before = beforeOrNull ?? EMPTY;
  const after = afterOrNull ?? EMPTY;
  const was = new Map(before.members.map((m) => [m.router_name, storedForm(m).hash]));
  const is = new Map(after.members.map((m) => [m.router_name, storedForm(m).hash]));
  const key = `${before.network_number}|${fingerprint(was)}|${fingerprint(is)}`;
  const large = Math.max(before.members.length, after.members.length) > LIMITS.previewReachMaxMembers;
  let known = effects.get(key);
  if (!known) {
    const members: PreviewAnswer['members'] = [];
    for (const [name, hash] of is) {
      const old = was.get(name);
      if (old === undefined) members.push({ router_name: name, change: 'added' });
      else if (old !== hash) members.push({ router_name: name, change: 'changed' });
    }
    for (const name of was.keys()) if (!is.has(name)) members.push({ router_name: name, change: 'removed' });
    // Nothing compiled differs: nothing can reach differently.
    const changes = large || members.length === 0 ? [] : await compareReachability(before, after);
    // Losses first, then the normal state before the failure states.
    changes.sort((a, b) => Number(a.gained) - Number(b.gained) || Number(a.state !== '') - Number(b.state !== ''));
    known = { members, changes };
    effects.set(key, known);
    if (effects.size > EFFECTS_MAX) effects.delete(effects.keys().next().value!);
  }
  const { members, changes } = known;
  const viewer = memberAt(before, caller.ip);
  const cut =
    viewer !== null &&
    (!is.has(viewer) || changes.some((c) => c.state === '' && !c.gained && (c.from === viewer || c.to.member === viewer)));
  return {
    members: members.slice(0, PREVIEW_MEMBERS_SHOWN),
    member_count: members.length,
    reach: large ? null : changes.slice(0, PREVIEW_REACH_SHOWN).map(asReach),
    reach_count: changes.length,
    viewer: viewer === null ? null : { router_name: viewer, cut },
  };
}
