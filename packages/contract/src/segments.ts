/*
 * IPv4 segments (an address and a prefix length): parsing "a.b.c.d/n", the network address of an
 * address under a mask, and overlap. Pure functions shared by the server's rules, the console's forms,
 * the POP pools and the compiler. Addresses are dotted quads; masks are prefix lengths 0–32.
 */

export interface Segment {
  /** Dotted quad. */
  ip: string;
  /** Prefix length, 0–32. */
  mask: number;
}

/** Four octets 0–255 without leading zeros ('10.09.0.0' is not an address). */
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const QUAD = new RegExp(`^${OCTET}\\.${OCTET}\\.${OCTET}\\.${OCTET}$`);

/** The address as an unsigned 32-bit number; undefined when it is not a dotted quad of 0–255 without leading zeros. */
export function ipToNumber(ip: string): number | undefined {
  const m = QUAD.exec(ip);
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) n = n * 256 + Number(m[i]);
  return n;
}

export function numberToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

const isMask = (mask: number) => Number.isInteger(mask) && mask >= 0 && mask <= 32;

/** The first address of the block: `n` with the host bits cleared (2^32 arithmetic: >>> keeps it unsigned). */
function blockStart(n: number, mask: number): number {
  if (mask === 0) return 0;
  return (n & (~0 << (32 - mask))) >>> 0;
}

/** The network address of `ip` under `mask` ("10.1.2.3", 16 → "10.1.0.0"); undefined for a bad ip or mask. */
export function networkAddress(ip: string, mask: number): string | undefined {
  const n = ipToNumber(ip);
  if (n === undefined || !isMask(mask)) return undefined;
  return numberToIp(blockStart(n, mask));
}

/** True when `ip` is the network address of its mask (no host bits set). */
export const isNetworkAddress = (ip: string, mask: number) => networkAddress(ip, mask) === ip;

/** "a.b.c.d/n" as a segment (the address as written); undefined when it is not one. */
export function parseCidr(text: string): Segment | undefined {
  const slash = text.indexOf('/');
  if (slash < 0) return undefined;
  const ip = text.slice(0, slash);
  const maskText = text.slice(slash + 1);
  if (!/^\d{1,2}$/.test(maskText)) return undefined;
  const mask = Number(maskText);
  if (ipToNumber(ip) === undefined || !isMask(mask)) return undefined;
  return { ip, mask };
}

export const formatCidr = (s: Segment) => `${s.ip}/${s.mask}`;

/** True when the two blocks share an address: the shorter prefix contains the other's network. */
export function overlaps(a: Segment, b: Segment): boolean {
  const an = ipToNumber(a.ip);
  const bn = ipToNumber(b.ip);
  if (an === undefined || bn === undefined || !isMask(a.mask) || !isMask(b.mask)) return false;
  const shorter = Math.min(a.mask, b.mask);
  return blockStart(an, shorter) === blockStart(bn, shorter);
}

/** The shared address space of RFC 6598, out of which the compiler hands every VPN address. */
export const VPN_ADDRESS_SPACE: Segment = { ip: '100.64.0.0', mask: 10 };

/**
 * The pools the compiler allocates VPN addresses from where a network's IP address pool leaves one
 * unset (the compiler takes them from here). A LAN (a route prefix) must keep out of them: it would
 * be routed into the tunnels.
 */
export const VPN_DEFAULT_POOLS = {
  center_network: { ip: '100.64.0.0', mask: 12 },
  pop: { ip: '100.80.0.0', mask: 12 },
  pop_software: { ip: '100.96.0.0', mask: 12 },
  center_link_network: { ip: '100.127.0.0', mask: 16 },
} as const satisfies Record<string, Segment>;
export type VpnPoolKey = keyof typeof VPN_DEFAULT_POOLS;
