import type { BgpNeighbor, DynamicRouting, MemberInput } from './model';
import { fnv1a } from './ip';
import { centerAddressOf, hostAt, serviceOf, type AddressPlan } from './plan';
import { lanOf, linkedOf, linkName, peerOf, quaggaOf, type Shared } from './shared';

/*
 * Dynamic routing (a member's quagga flag; docs/networking.md "Dynamic routing"): a member with it on
 * runs OSPF on its LAN interfaces and iBGP to each of its centers over the tunnels; every center runs
 * BGP as soon as any member of the network has it on, reflecting routes between its points and to the
 * other centers over their links. A center accepts from a point only what the point's prefix list lets
 * through, so a point cannot claim another member's prefixes.
 */

/** BGP local preferences (see model.ts BgpNeighbor.preference). */
const PREFERENCE = { owner: 100, twin: 90, mesh: 80, step: 10, lowest: 10 } as const;

/** One private AS for every network: the networks a device is in are kept apart by community. */
export const BGP_ASN = 64512;
/** A network's BGP community value (the part after the ASN): stable for the network's number. */
export const communityOf = (networkNumber: string) => fnv1a(networkNumber) % 65_536;

export function dynamicOf(m: MemberInput, shared: Shared, plan: AddressPlan): DynamicRouting | null {
  if (!shared.dynamicOn) return null;
  const base = {
    asn: BGP_ASN,
    community: `${BGP_ASN}:${communityOf(shared.input.network_number)}`,
    ospf_networks: quaggaOf(m) ? lanOf(shared, m) : [],
    announce: quaggaOf(m) ? (shared.prefixLists.get(m.router_name.toLowerCase()) ?? []) : null,
    maximum_paths: shared.balance ? Math.max(1, shared.centerOrder.length) : 1,
  };
  if (m.member_type === 'center') {
    const neighbors: BgpNeighbor[] = [];
    for (const q of shared.carried.get(m)!) {
      const address = plan.addressOf(q, m);
      if (!quaggaOf(q) || !address) continue;
      neighbors.push({ name: q.router_name, address, via: serviceOf(q), kind: 'point', accept: shared.prefixLists.get(q.router_name.toLowerCase()) ?? [], preference: PREFERENCE.owner });
    }
    for (const l of shared.linksOf(m)) {
      const d = peerOf(l, m);
      const own = l.server === m ? 1 : 2;
      neighbors.push({ name: d.router_name, address: hostAt(l.segment, 3 - own), via: linkName(l, d), kind: 'center', accept: null, preference: l.kind === 'twin' ? PREFERENCE.twin : PREFERENCE.mesh });
    }
    return { ...base, router_id: centerAddressOf(plan.subnets.get(m.router_name)!.router), neighbors };
  }
  if (!quaggaOf(m)) return null;
  const centers = linkedOf(shared, m);
  const neighbors: BgpNeighbor[] = centers.map((c) => ({
    name: c.router_name,
    address: centerAddressOf(plan.subnets.get(c.router_name)![serviceOf(m)]),
    via: shared.tunnelName(c),
    kind: 'center',
    accept: null,
    // Main-backup: the main center's routes first, as for the static ones; dual primary: all alike (multipath).
    preference: shared.balance ? PREFERENCE.owner : Math.max(PREFERENCE.lowest, PREFERENCE.owner - PREFERENCE.step * shared.rankOf(c)),
  }));
  const routerId = centers.map((c) => plan.addressOf(m, c)).find((a) => a !== null);
  if (!routerId) return null;
  return { ...base, router_id: routerId, neighbors };
}
