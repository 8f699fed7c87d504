import { describe, expect, it } from 'vitest';
import { canonicalPrefix, disjointPrefixes } from './cidr';

describe('IPv4 prefixes', () => {
  it('writes a prefix canonically, host bits cleared, an address as a /32', () => {
    expect(canonicalPrefix('10.1.2.3/16')).toBe('10.1.0.0/16');
    expect(canonicalPrefix('192.0.2.7')).toBe('192.0.2.7/32');
    expect(canonicalPrefix('0.0.0.0/0')).toBe('0.0.0.0/0');
    expect(canonicalPrefix('255.255.255.255/31')).toBe('255.255.255.254/31');
  });

  it('refuses what is not an IPv4 prefix', () => {
    for (const text of ['10.1.2/16', '10.1.2.256/24', '10.1.2.3/33', '10.1.2.3/', 'a.b.c.d/8', '10.0.0.0/8/8', '::1/128', '']) {
      expect(() => canonicalPrefix(text), text).toThrow(/not an IPv4/);
    }
  });

  it('sorts, drops duplicates and the prefixes inside another, keeps neighbours apart', () => {
    expect(disjointPrefixes(['192.0.2.0/24', '10.1.2.3/16', '10.0.0.0/8', '192.0.2.0/24', '192.0.2.9', '100.64.0.0/10', '198.51.100.0/25', '198.51.100.128/25'])).toEqual([
      '10.0.0.0/8',
      '100.64.0.0/10',
      '192.0.2.0/24',
      '198.51.100.0/25',
      '198.51.100.128/25',
    ]);
    expect(disjointPrefixes([])).toEqual([]);
    expect(disjointPrefixes(['10.0.0.0/8', '0.0.0.0/0'])).toEqual(['0.0.0.0/0']);
  });
});
