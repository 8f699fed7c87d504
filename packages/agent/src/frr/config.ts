import { DEFAULT_PREFERENCE, ipv4Value, type BgpNeighbor, type NetworkDynamic, type PrefixListEntry } from './section';

/*
 * The FRRouting configuration of a device from the `dynamic` sections of the networks it is in
 * (docs/networking.md "Dynamic routing"): one `router bgp` for all of them, the networks' routes kept
 * apart by community. Every route is tagged with its network's community where it enters (from a
 * neighbour of that network, through the neighbour's accept list when it has one, or from the
 * member's own LANs through that network's announce list), and only routes carrying a network's
 * community leave towards that network's neighbours. A tag set where a route enters replaces any the
 * sender put on it, and one set where it leaves replaces the others, so a route of one network can
 * never be carried into another, whatever a peer sends.
 *
 * The text is deterministic (same sections, same text): the manager applies the difference between
 * two of them line by line. Definitions (prefix lists, community lists, route maps) come before the
 * `router bgp` that names them, so a whole-config load never meets a reference to something not yet
 * defined and a difference removes a reference before what it names. Every line is written the way
 * FRR 8.4 shows it in its running configuration, so the two can be compared (tree.ts).
 */

/** BGP keepalives every 3 s: a peer that went is noticed in seconds, not in FRR's default 3 minutes. */
const KEEPALIVE_S = 3;
/** A peer silent for this long is down (3 keepalives). */
const HOLD_S = 9;
/** A session that failed is tried again after this, not after FRR's default 120 s (a tunnel that came back). */
const CONNECT_RETRY_S = 5;
/** How soon a changed prefix list or route map is applied to the routes (FRR's default: 5 s). */
const ROUTE_MAP_DELAY_S = 1;
/** SPF runs at once, then at most every 50 ms rising to 1 s under churn (FRR's default: up to 5 s). */
const SPF_THROTTLE = '0 50 1000';
/** The route-map entry that permits what one of the networks' entries tagged (each entry continues). */
const OWN_LAST_SEQ = 65_535;

/** Identifiers: FRR words of letters, digits, '.' and '-', with '_' kept for separating their parts. */
const SEPARATOR = '_';
const PLAIN = /^[A-Za-z0-9.-]{1,32}$/;

/** FNV-1a, 32 bits: the same name gives the same token on every run. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** A stable FRR-safe token for a name: itself when plain, else a readable part and the name's hash. */
export function token(name: string): string {
  if (PLAIN.test(name)) return name;
  const readable = name.replace(/[^A-Za-z0-9.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 16);
  const digest = fnv1a(name).toString(16).padStart(8, '0');
  return readable ? `${readable}-${digest}` : digest;
}

/** The names one network's policy uses. */
export function namesOf(network: string) {
  const n = `HL${SEPARATOR}${token(network)}`;
  return {
    /** The community list matching the network's tag. */
    community: n,
    /** Tags (and filters, with an accept list) what a neighbour sends. */
    inbound: (neighbor: string | null) => (neighbor === null ? `${n}${SEPARATOR}IN` : `${n}${SEPARATOR}IN${SEPARATOR}${neighbor}`),
    /** Lets only the network's routes out to its neighbours. */
    outbound: `${n}${SEPARATOR}OUT`,
    /** The member's own announce list in this network. */
    own: `${n}${SEPARATOR}OWN`,
  };
}

/** What the member announces of its own, for every network: the redistribution's route map and community list. */
export const OWN_ROUTE_MAP = `HL${SEPARATOR}OWN`;

export interface FrrConfig {
  text: string;
  /** ospfd runs only when some network has OSPF on the member's LANs. */
  ospf: boolean;
  /** Sections that disagree with the first on the AS, or clash (an address, a community): what was done instead. */
  problems: string[];
  /**
   * What is expected but worth a line in the log: a device in several networks has a router id in each
   * (its tunnel address there) and BGP takes the first network's.
   */
  notes: string[];
}

function entryLine(list: string, e: PrefixListEntry): string {
  return `ip prefix-list ${list} seq ${e.seq} ${e.action} ${e.prefix}${e.ge !== null ? ` ge ${e.ge}` : ''}${e.le !== null ? ` le ${e.le}` : ''}`;
}

const byAddress = (a: { address: string }, b: { address: string }) => ipv4Value(a.address)! - ipv4Value(b.address)!;

interface Peer {
  network: string;
  community: string;
  neighbor: BgpNeighbor;
  /** The inbound route map's name. */
  inbound: string;
  /** The accept list's prefix-list name, when it has one with entries. */
  acceptList: string | null;
}

/** FRR's default local preference needs no line; another one is set on what the neighbour sends. */
const preferenceLine = (preference: number) => (preference === DEFAULT_PREFERENCE ? [] : [` set local-preference ${preference}`]);

/** The inbound route-map of neighbours without an accept list: one per local preference. */
const plainInbound = (names: ReturnType<typeof namesOf>, preference: number) => (preference === DEFAULT_PREFERENCE ? names.inbound(null) : `${names.inbound(null)}_P${preference}`);

/** The configuration for the device's networks, in the order given (the first one's AS and router id win). */
export function frrConfig(sections: NetworkDynamic[]): FrrConfig {
  const problems: string[] = [];
  const notes: string[] = [];
  const first = sections[0];
  if (!first) return { text: '', ospf: false, problems, notes };
  const { asn, router_id: routerId } = first.dynamic;

  const kept: NetworkDynamic[] = [];
  const communities = new Map<string, string>();
  for (const s of sections) {
    const d = s.dynamic;
    if (d.asn !== asn) problems.push(`network ${s.network}: dynamic routing: AS ${d.asn} differs from network ${first.network}'s ${asn}; ${asn} is used`);
    if (d.router_id !== routerId) notes.push(`network ${s.network}: BGP router id ${d.router_id} differs from network ${first.network}'s ${routerId}; ${routerId} is used`);
    const clash = communities.get(d.community);
    if (clash !== undefined) {
      problems.push(`network ${s.network}: dynamic routing: community ${d.community} is network ${clash}'s too; the network is left out so their routes stay apart`);
      continue;
    }
    communities.set(d.community, s.network);
    kept.push(s);
  }

  const definitions: string[] = [];
  const peers: Peer[] = [];
  const addresses = new Map<string, string>();
  const ownNetworks: NetworkDynamic[] = [];
  for (const s of kept) {
    const d = s.dynamic;
    const names = namesOf(s.network);
    const used = new Set<string>();
    const plainPreferences = new Set<number>();
    for (const neighbor of d.neighbors) {
      const taken = addresses.get(neighbor.address);
      if (taken !== undefined) {
        problems.push(`network ${s.network}: dynamic routing: neighbour ${neighbor.name} at ${neighbor.address} is already ${taken}; left out`);
        continue;
      }
      addresses.set(neighbor.address, `${neighbor.name} of network ${s.network}`);
      if (neighbor.accept === null) {
        plainPreferences.add(neighbor.preference);
        peers.push({ network: s.network, community: d.community, neighbor, inbound: plainInbound(names, neighbor.preference), acceptList: null });
        continue;
      }
      // Two neighbours of one name (a peer over two links) keep apart by address.
      let id = token(neighbor.name);
      if (used.has(id)) id = `${id}-${neighbor.address.replaceAll('.', '-')}`;
      used.add(id);
      const inbound = names.inbound(id);
      peers.push({ network: s.network, community: d.community, neighbor, inbound, acceptList: neighbor.accept.length > 0 ? inbound : null });
    }
    const ofNetwork = peers.filter((p) => p.network === s.network);
    for (const p of ofNetwork) if (p.acceptList) for (const e of p.neighbor.accept!) definitions.push(entryLine(p.acceptList, e));
    if (d.announce && d.announce.length > 0) {
      ownNetworks.push(s);
      for (const e of d.announce) definitions.push(entryLine(names.own, e));
    }
    if (ofNetwork.length > 0) definitions.push('!', `bgp community-list standard ${names.community} seq 5 permit ${d.community}`);
    definitions.push('!');
    // Inbound: the accept list when there is one (an empty one accepts nothing), then the network's tag alone.
    for (const p of ofNetwork.filter((x) => x.neighbor.accept !== null)) {
      if (p.acceptList) definitions.push(`route-map ${p.inbound} permit 10`, ` match ip address prefix-list ${p.acceptList}`, ` set community ${d.community}`, ...preferenceLine(p.neighbor.preference), 'exit', '!');
      else definitions.push(`route-map ${p.inbound} deny 10`, 'exit', '!');
    }
    for (const preference of [...plainPreferences].sort((a, b) => b - a)) {
      definitions.push(`route-map ${plainInbound(names, preference)} permit 10`, ` set community ${d.community}`, ...preferenceLine(preference), 'exit', '!');
    }
    if (ofNetwork.length > 0) definitions.push(`route-map ${names.outbound} permit 10`, ` match community ${names.community}`, ` set community ${d.community}`, 'exit', '!');
  }

  // The member's own routes: each network's entry tags what its announce list permits and goes on to
  // the next (a prefix two networks permit carries both tags); the last permits whatever got a tag.
  if (ownNetworks.length > 0) {
    ownNetworks.forEach((s, i) => {
      definitions.push(`route-map ${OWN_ROUTE_MAP} permit ${10 * (i + 1)}`, ` match ip address prefix-list ${namesOf(s.network).own}`, ' on-match next', ` set community ${s.dynamic.community} additive`, 'exit', '!');
    });
    ownNetworks.forEach((s, i) => definitions.push(`bgp community-list standard ${OWN_ROUTE_MAP} seq ${5 * (i + 1)} permit ${s.dynamic.community}`));
    definitions.push('!', `route-map ${OWN_ROUTE_MAP} permit ${OWN_LAST_SEQ}`, ` match community ${OWN_ROUTE_MAP}`, 'exit', '!');
  }

  const ospfNetworks = [...new Set(kept.flatMap((s) => s.dynamic.ospf_networks))];
  const ospf = ospfNetworks.length > 0;
  const maximumPaths = Math.max(...kept.map((s) => s.dynamic.maximum_paths));
  peers.sort((a, b) => byAddress(a.neighbor, b.neighbor));

  const bgp = [
    `router bgp ${asn}`,
    ` bgp router-id ${routerId}`,
    ' bgp log-neighbor-changes',
    ' no bgp ebgp-requires-policy',
    ' no bgp default ipv4-unicast',
    ` timers bgp ${KEEPALIVE_S} ${HOLD_S}`,
    ...peers.flatMap(({ network, neighbor: n }) => [
      ` neighbor ${n.address} remote-as ${asn}`,
      ` neighbor ${n.address} description ${token(network)} ${token(n.name)}`,
      ` neighbor ${n.address} timers connect ${CONNECT_RETRY_S}`,
    ]),
  ];
  const family = [
    ...(ownNetworks.length > 0 ? [`  redistribute connected route-map ${OWN_ROUTE_MAP}`, ...(ospf ? [`  redistribute ospf route-map ${OWN_ROUTE_MAP}`] : [])] : []),
    ...peers.flatMap((p) => {
      const a = p.neighbor.address;
      return [
        `  neighbor ${a} activate`,
        ...(p.neighbor.kind === 'point' ? [`  neighbor ${a} route-reflector-client`] : []),
        `  neighbor ${a} next-hop-self force`,
        `  neighbor ${a} route-map ${p.inbound} in`,
        `  neighbor ${a} route-map ${namesOf(p.network).outbound} out`,
      ];
    }),
    ...(maximumPaths > 1 ? [`  maximum-paths ibgp ${maximumPaths}`] : []),
  ];
  if (family.length > 0) bgp.push(' !', ' address-family ipv4 unicast', ...family, ' exit-address-family');
  bgp.push('exit', '!');

  const lines = [
    '! The HubLink agent writes this from the compiled configuration; a change made by hand is undone.',
    `bgp route-map delay-timer ${ROUTE_MAP_DELAY_S}`,
    '!',
    ...definitions,
    ...bgp,
    ...(ospf ? ['router ospf', ` ospf router-id ${routerId}`, ` timers throttle spf ${SPF_THROTTLE}`, ...ospfNetworks.map((p) => ` network ${p} area 0`), 'exit', '!'] : []),
  ];
  // No two separators in a row (a network without neighbours leaves some).
  const text = lines.filter((l, i) => l !== '!' || lines[i - 1] !== '!').join('\n');
  return { text: `${text}\n`, ospf, problems, notes };
}
