/** IPv4 prefixes as numbers, to compare and merge the sets the agent writes. */

const ADDRESS_BITS = 32;
const OCTET_MAX = 255;
const OCTET_BITS = 8;
const OCTETS = 4;

interface Prefix {
  base: number;
  length: number;
}

function parseAddress(text: string): number {
  const parts = text.split('.');
  if (parts.length !== OCTETS || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= OCTET_MAX)) throw new Error(`not an IPv4 address: '${text}'`);
  return parts.reduce((n, p) => n * 2 ** OCTET_BITS + Number(p), 0);
}

function formatAddress(n: number): string {
  return Array.from({ length: OCTETS }, (_, i) => Math.floor(n / 2 ** (OCTET_BITS * (OCTETS - 1 - i))) % 2 ** OCTET_BITS).join('.');
}

/** 'a.b.c.d/m' or an address (a /32), with the host bits cleared. */
function parsePrefix(text: string): Prefix {
  const [address = '', bits = String(ADDRESS_BITS), extra] = text.split('/');
  const length = Number(bits);
  if (extra !== undefined || !/^\d{1,2}$/.test(bits) || length > ADDRESS_BITS) throw new Error(`not an IPv4 prefix: '${text}'`);
  const size = 2 ** (ADDRESS_BITS - length);
  return { base: Math.floor(parseAddress(address) / size) * size, length };
}

function size(p: Prefix): number {
  return 2 ** (ADDRESS_BITS - p.length);
}

/** The canonical form 'a.b.c.d/m' of a prefix or an address (host bits cleared). */
export function canonicalPrefix(text: string): string {
  const p = parsePrefix(text);
  return `${formatAddress(p.base)}/${p.length}`;
}

/**
 * The prefixes, canonical, sorted, without duplicates and without those inside another: two prefixes
 * either nest or are disjoint, so what is left does not overlap (as an nftables interval set requires).
 */
export function disjointPrefixes(texts: string[]): string[] {
  const sorted = texts.map(parsePrefix).sort((a, b) => a.base - b.base || a.length - b.length);
  const kept: Prefix[] = [];
  for (const p of sorted) {
    const last = kept[kept.length - 1];
    if (last && p.base < last.base + size(last)) continue;
    kept.push(p);
  }
  return kept.map((p) => `${formatAddress(p.base)}/${p.length}`);
}
