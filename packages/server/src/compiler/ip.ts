import type { Segment } from './model';

/** IPv4 arithmetic on unsigned 32-bit numbers: what the address plan needs, nothing more. */

export function ipToInt(ip: string): number {
  // A hand-rolled parse: the plan converts thousands of addresses per compile.
  let n = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = 0; i < ip.length; i++) {
    const c = ip.charCodeAt(i);
    if (c === 46) {
      if (digits === 0 || ++dots > 3) throw new Error(`not an IPv4 address: ${ip}`);
      n = n * 256 + octet;
      octet = 0;
      digits = 0;
    } else if (c >= 48 && c <= 57 && digits < 3) {
      octet = octet * 10 + (c - 48);
      digits++;
      if (octet > 255) throw new Error(`not an IPv4 address: ${ip}`);
    } else {
      throw new Error(`not an IPv4 address: ${ip}`);
    }
  }
  if (dots !== 3 || digits === 0) throw new Error(`not an IPv4 address: ${ip}`);
  return n * 256 + octet;
}

export const intToIp = (n: number) => `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;

export const sizeOf = (mask: number) => 2 ** (32 - mask);

/** The dotted netmask of a prefix length (24 → 255.255.255.0). */
export const maskToDotted = (mask: number) => intToIp(mask === 0 ? 0 : (0xffffffff << (32 - mask)) >>> 0);

/** The network address of `ip` under `mask`. */
export const networkOf = (ip: string, mask: number): string => intToIp(Math.floor(ipToInt(ip) / sizeOf(mask)) * sizeOf(mask));

export interface Range {
  start: number;
  /** Exclusive. */
  end: number;
}

export const rangeOf = (s: Segment): Range => {
  const start = ipToInt(s.network);
  return { start, end: start + sizeOf(s.mask) };
};

export const overlaps = (a: Range, b: Range) => a.start < b.end && b.start < a.end;

/** `a.b.c.d/m` → a segment (its network address normalised), or null for '' or anything malformed. */
export function parseCidr(text: unknown): Segment | null {
  if (typeof text !== 'string') return null;
  const m = /^(\d{1,3}(?:\.\d{1,3}){3})\/(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const mask = Number(m[2]);
  if (mask < 1 || mask > 32) return null;
  try {
    return { network: networkOf(m[1]!, mask), mask };
  } catch {
    return null;
  }
}

/**
 * The first block of `mask` inside `within`, aligned to its size, that overlaps nothing in `used`;
 * null when `within` is full.
 */
export function allocate(mask: number, within: Segment, used: readonly Range[]): Segment | null {
  if (mask < within.mask) return null;
  const size = sizeOf(mask);
  const { start, end } = rangeOf(within);
  const sorted = [...used].filter((u) => u.end > start && u.start < end).sort((a, b) => a.start - b.start);
  let at = start;
  for (const u of sorted) {
    if (at + size <= u.start) break;
    if (u.end > at) at = Math.ceil(u.end / size) * size;
  }
  return at + size <= end ? { network: intToIp(at), mask } : null;
}

/** FNV-1a of a string: a stable, well-spread number for a member's address slot. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
