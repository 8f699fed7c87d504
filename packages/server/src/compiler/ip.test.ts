import { describe, expect, it } from 'vitest';
import { allocate, intToIp, ipToInt, maskToDotted, networkOf, parseCidr, rangeOf } from './ip';

describe('compiler ip', () => {
  it('parses and prints IPv4 addresses, refusing anything else', () => {
    expect(ipToInt('100.64.0.1')).toBe(100 * 2 ** 24 + 64 * 2 ** 16 + 1);
    expect(intToIp(ipToInt('255.255.255.255'))).toBe('255.255.255.255');
    for (const bad of ['', '1.2.3', '1.2.3.4.5', '256.1.1.1', '1..2.3', '1.2.3.4 ', 'a.b.c.d', '1234.1.1.1']) expect(() => ipToInt(bad)).toThrow();
  });

  it('writes masks and network addresses', () => {
    expect([maskToDotted(0), maskToDotted(20), maskToDotted(32)]).toEqual(['0.0.0.0', '255.255.240.0', '255.255.255.255']);
    expect(networkOf('172.20.1.7', 24)).toBe('172.20.1.0');
    expect(parseCidr('10.1.2.3/16')).toEqual({ network: '10.1.0.0', mask: 16 });
    for (const bad of ['', '10.0.0.0', '10.0.0.0/0', '10.0.0.0/33', '300.0.0.0/8', 7, null]) expect(parseCidr(bad)).toBeNull();
  });

  it('allocates the first aligned free block, skipping used ranges, and null when full', () => {
    const pool = { network: '100.64.0.0', mask: 22 };
    const used = [rangeOf({ network: '100.64.0.0', mask: 24 }), rangeOf({ network: '100.64.1.128', mask: 25 })];
    expect(allocate(24, pool, used)).toEqual({ network: '100.64.2.0', mask: 24 });
    expect(allocate(25, pool, used)).toEqual({ network: '100.64.1.0', mask: 25 });
    expect(allocate(22, pool, used)).toBeNull();
    expect(allocate(21, pool, [])).toBeNull();
    const full = [0, 1, 2, 3].map((i) => rangeOf({ network: `100.64.${i}.0`, mask: 24 }));
    expect(allocate(30, pool, full)).toBeNull();
  });
});
