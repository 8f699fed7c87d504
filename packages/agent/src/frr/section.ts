import type { BgpNeighbor, DynamicRouting, PrefixListEntry } from '@hublink/contract';
import { canonicalPrefix } from '../host/cidr';
/*
 * The compiled `dynamic` section of a member's configuration (packages/server/src/compiler/model.ts,
 * DynamicRouting), read strictly: every value ends up in FRR's configuration text, so a value that is
 * not exactly what FRR expects (a name with a newline, a prefix-list range FRR would refuse only when
 * it is applied) refuses the whole section rather than reaching vtysh.
 */

export type { BgpNeighbor, DynamicRouting, PrefixListEntry } from '@hublink/contract';

/** One network's section as the manager gets it. */
export interface NetworkDynamic {
  network: string;
  dynamic: DynamicRouting;
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAX_ASN = 4_294_967_295;
const MAX_SEQ = 4_294_967_295;
const MAX_COMMUNITY_PART = 65_535;
/** Debian's FRR is built with --enable-multipath=256. */
const MAX_PATHS = 256;
const MAX_NAME = 64;
/** FRR's own default local preference, and the largest it takes. */
export const DEFAULT_PREFERENCE = 100;
const MAX_PREFERENCE = 4_294_967_295;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The address as a number, or null unless it is a dotted quad. */
export function ipv4Value(text: string): number | null {
  const m = IPV4.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255) || m.slice(1).some((p) => p.length > 1 && p.startsWith('0'))) return null;
  return parts.reduce((v, p) => v * 256 + p, 0);
}

/** 'a.b.c.d/m' with its host bits cleared (FRR clears them too, and shows the result), or null. */
export function networkPrefix(text: unknown): string | null {
  if (typeof text !== 'string') return null;
  const [address = '', length] = text.split('/');
  // Stricter than canonicalPrefix: the length is required and an octet has no leading zero.
  if (length === undefined || ipv4Value(address) === null) return null;
  try {
    return canonicalPrefix(text);
  } catch {
    return null;
  }
}

class Refusal extends Error {}

function fail(field: string, value: unknown, expected: string): never {
  throw new Refusal(`${field} ${JSON.stringify(value) ?? String(value)} is not ${expected}`);
}

function integer(field: string, v: unknown, min: number, max: number): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) fail(field, v, `an integer from ${min} to ${max}`);
  return v;
}

function address(field: string, v: unknown): string {
  if (typeof v !== 'string' || ipv4Value(v) === null) fail(field, v, 'an IPv4 address');
  return v;
}

const isControl = (ch: string) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f;

function name(field: string, v: unknown): string {
  // Names only ever reach FRR through derived identifiers (names.ts), but a control character is a broken config.
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_NAME || [...v].some(isControl)) fail(field, v, `a name of 1 to ${MAX_NAME} printable characters`);
  return v;
}

function length(field: string, v: unknown): number | null {
  if (v === null || v === undefined) return null;
  return integer(field, v, 0, 32);
}

/** FRR 8.4 refuses an entry unless its prefix length <= ge <= le (when given); vtysh -C does not check it. */
function entries(field: string, v: unknown): PrefixListEntry[] {
  if (!Array.isArray(v)) fail(field, v, 'a list');
  const seen = new Set<number>();
  const out = v.map((raw, i): PrefixListEntry => {
    const at = `${field}[${i}]`;
    if (!isObj(raw)) fail(at, raw, 'a prefix-list entry');
    const seq = integer(`${at}.seq`, raw.seq, 1, MAX_SEQ);
    if (seen.has(seq)) fail(`${at}.seq`, seq, 'unique in its list');
    seen.add(seq);
    if (raw.action !== 'permit' && raw.action !== 'deny') fail(`${at}.action`, raw.action, "'permit' or 'deny'");
    const prefix = networkPrefix(raw.prefix) ?? fail(`${at}.prefix`, raw.prefix, 'an IPv4 prefix a.b.c.d/m');
    const bits = Number(prefix.split('/')[1]);
    const ge = length(`${at}.ge`, raw.ge);
    const le = length(`${at}.le`, raw.le);
    if (ge !== null && ge < bits) fail(`${at}.ge`, ge, `at least the prefix length ${bits}`);
    if (le !== null && (le < bits || (ge !== null && le < ge))) fail(`${at}.le`, le, `at least the prefix length ${bits} and ge`);
    return { seq, action: raw.action, prefix, ge, le };
  });
  return out.sort((a, b) => a.seq - b.seq);
}

function neighbor(field: string, v: unknown): BgpNeighbor {
  if (!isObj(v)) fail(field, v, 'a neighbour');
  if (v.kind !== 'center' && v.kind !== 'point') fail(`${field}.kind`, v.kind, "'center' or 'point'");
  return {
    name: name(`${field}.name`, v.name),
    address: address(`${field}.address`, v.address),
    via: typeof v.via === 'string' ? v.via : '',
    kind: v.kind,
    accept: v.accept === null || v.accept === undefined ? null : entries(`${field}.accept`, v.accept),
    preference: integer(`${field}.preference`, v.preference ?? DEFAULT_PREFERENCE, 0, MAX_PREFERENCE),
  };
}

/** Reads one network's section: the section, or why it is refused (naming the field). */
export function readDynamic(raw: unknown): { dynamic: DynamicRouting } | { refused: string } {
  try {
    if (!isObj(raw)) fail('the section', raw, 'an object');
    const community = typeof raw.community === 'string' ? /^(\d{1,10}):(\d{1,5})$/.exec(raw.community) : null;
    if (!community || Number(community[1]) > MAX_COMMUNITY_PART || Number(community[2]) > MAX_COMMUNITY_PART) fail('community', raw.community, "a community 'AA:NN' (each 0-65535)");
    if (!Array.isArray(raw.ospf_networks)) fail('ospf_networks', raw.ospf_networks, 'a list');
    if (!Array.isArray(raw.neighbors)) fail('neighbors', raw.neighbors, 'a list');
    return {
      dynamic: {
        asn: integer('asn', raw.asn, 1, MAX_ASN),
        community: `${Number(community[1])}:${Number(community[2])}`,
        router_id: address('router_id', raw.router_id),
        ospf_networks: raw.ospf_networks.map((p, i) => networkPrefix(p) ?? fail(`ospf_networks[${i}]`, p, 'an IPv4 prefix a.b.c.d/m')),
        announce: raw.announce === null || raw.announce === undefined ? null : entries('announce', raw.announce),
        neighbors: raw.neighbors.map((n, i) => neighbor(`neighbors[${i}]`, n)),
        maximum_paths: integer('maximum_paths', raw.maximum_paths ?? 1, 1, MAX_PATHS),
      },
    };
  } catch (e) {
    if (e instanceof Refusal) return { refused: e.message };
    throw e;
  }
}
