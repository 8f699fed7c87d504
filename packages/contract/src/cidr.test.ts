import { describe, expect, it } from 'vitest';
import { formatCidr, isNetworkAddress, networkAddress, overlaps, parseCidr, parseIpv4 } from './cidr';

const cidr = (s: string) => {
  const c = parseCidr(s);
  if (!c) throw new Error(`not a segment: ${s}`);
  return c;
};

describe('cidr', () => {
  it('parses addresses and segments, refusing leading zeros, octets past 255 and masks past 32', () => {
    expect(parseIpv4('10.8.0.1')).toBe(10 * 2 ** 24 + 8 * 2 ** 16 + 1);
    expect(parseIpv4('255.255.255.255')).toBe(2 ** 32 - 1);
    for (const bad of ['10.8.0', '10.8.0.01', '256.1.1.1', '1.1.1.1.1', 'a.b.c.d', '']) expect(parseIpv4(bad)).toBeNull();
    expect(parseCidr(' 10.8.0.0/16 ')).toEqual({ ip: parseIpv4('10.8.0.0'), mask: 16 });
    for (const bad of ['10.8.0.0', '10.8.0.0/33', '10.8.0.0/', '10.8.0.0/1a', '10.8.0.0/16/1']) expect(parseCidr(bad)).toBeNull();
    expect(formatCidr(cidr('192.168.10.0/24'))).toBe('192.168.10.0/24');
  });

  it('finds the network address for a mask', () => {
    expect(networkAddress(cidr('10.8.200.7/16').ip, 16)).toBe(cidr('10.8.0.0/16').ip);
    expect(networkAddress(cidr('255.255.255.255/0').ip, 0)).toBe(0);
    expect(isNetworkAddress(cidr('10.8.0.0/16'))).toBe(true);
    expect(isNetworkAddress(cidr('10.8.1.0/16'))).toBe(false);
    expect(isNetworkAddress(cidr('10.8.1.0/24'))).toBe(true);
  });

  it('tells overlapping segments from neighbours', () => {
    expect(overlaps(cidr('10.8.0.0/16'), cidr('10.8.5.0/24'))).toBe(true);
    expect(overlaps(cidr('10.8.5.0/24'), cidr('10.8.0.0/16'))).toBe(true);
    expect(overlaps(cidr('10.8.0.0/24'), cidr('10.8.0.0/24'))).toBe(true);
    expect(overlaps(cidr('10.8.0.0/24'), cidr('10.8.1.0/24'))).toBe(false);
    expect(overlaps(cidr('10.7.255.0/24'), cidr('10.8.0.0/16'))).toBe(false);
    expect(overlaps(cidr('0.0.0.0/0'), cidr('192.168.1.0/24'))).toBe(true);
  });
});
