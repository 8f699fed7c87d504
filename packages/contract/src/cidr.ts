/*
 * IPv4 segments in CIDR notation ('10.8.0.0/16'), pure and shared by the server's rules and the
 * console's forms: parse, network address, overlap.
 */

export interface Cidr {
  /** The address as an unsigned 32-bit number. */
  ip: number;
  mask: number;
}

const OCTET = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** An IPv4 address without leading zeros as a number, or null. */
export function parseIpv4(text: string): number | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((p) => OCTET.test(p))) return null;
  return parts.reduce((n, p) => n * 256 + Number(p), 0);
}

export const formatIpv4 = (ip: number) => [24, 16, 8, 0].map((shift) => Math.floor(ip / 2 ** shift) % 256).join('.');

/** 'a.b.c.d/m' with m from 0 to 32, or null. */
export function parseCidr(text: string): Cidr | null {
  const m = /^([0-9.]{7,15})\/(\d{1,2})$/.exec(text.trim());
  if (!m) return null;
  const ip = parseIpv4(m[1]!);
  const mask = Number(m[2]);
  if (ip === null || mask > 32) return null;
  return { ip, mask };
}

/** How many addresses a mask spans. */
const sizeOf = (mask: number) => 2 ** (32 - mask);

/** The first address of the segment `ip` lies in under `mask`. */
export const networkAddress = (ip: number, mask: number) => ip - (ip % sizeOf(mask));

/** The address is the segment's own network address (10.8.0.0/16, not 10.8.1.0/16). */
export const isNetworkAddress = (c: Cidr) => networkAddress(c.ip, c.mask) === c.ip;

/** Two segments share at least one address. */
export function overlaps(a: Cidr, b: Cidr): boolean {
  const aStart = networkAddress(a.ip, a.mask);
  const bStart = networkAddress(b.ip, b.mask);
  return aStart < bStart + sizeOf(b.mask) && bStart < aStart + sizeOf(a.mask);
}

export const formatCidr = (c: Cidr) => `${formatIpv4(c.ip)}/${c.mask}`;
