import { LIMITS, PREVIEW_MEMBERS_SHOWN } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { compileNetwork } from './compile';
import { largeNetwork } from './fixtures';
import { networkEffect } from './preview';

describe("a settings preview's comparison", () => {
  it('lists the members of a network too large to compare, without the reachability, and trims the list', async () => {
    const input = largeNetwork(LIMITS.previewReachMaxMembers + 1);
    const effect = await networkEffect(compileNetwork(input), compileNetwork({ ...input, dns: ['192.0.2.53'] }), { ip: '127.0.0.1' });
    expect(effect).toMatchObject({ reach: null, reach_count: 0, member_count: LIMITS.previewReachMaxMembers + 1 });
    expect(effect.members).toHaveLength(PREVIEW_MEMBERS_SHOWN);
  });

  it('compares a network within the limit, and finds the member a LAN address belongs to', async () => {
    const input = largeNetwork(40);
    const shop = input.members.find((m) => m.member_type === 'point' && m.router_type === 1)!;
    const members = input.members.map((m) => (m === shop ? { ...m, link_centers: ['center2'] } : m));
    // 172.16.0.0/24 is the first shop's LAN (fixtures.ts).
    const effect = await networkEffect(compileNetwork(input), compileNetwork({ ...input, members }), { ip: '172.16.0.9' });
    expect(effect.reach).not.toBeNull();
    expect(effect.reach_count).toBeGreaterThan(0);
    expect(effect.viewer?.router_name).toBe(shop.router_name);
  });

  it("reports a LAN taken off the list as lost, not the member's own address as gained (it was reached before too)", async () => {
    const input = largeNetwork(12);
    const shop = input.prefixes[input.prefixes.length - 1]!;
    const effect = await networkEffect(compileNetwork(input), compileNetwork({ ...input, prefixes: input.prefixes.filter((p) => p !== shop) }), { ip: '' });
    const toShop = effect.reach!.filter((r) => r.to.member === shop.router_name);
    expect(toShop.some((r) => !r.gained && r.to.prefix === `${shop.ip}/24`)).toBe(true);
    expect(toShop.filter((r) => r.gained)).toEqual([]);
  });

  it('remembers a comparison by what was compiled (a save after its preview), and still judges each caller', async () => {
    const input = largeNetwork(40);
    const shop = input.members.find((m) => m.member_type === 'point' && m.router_type === 1)!;
    const cutting = { ...input, members: input.members.map((m) => (m === shop ? { ...m, link_centers: ['center2'] } : m)) };
    const first = await networkEffect(compileNetwork(input), compileNetwork(cutting), { ip: '172.16.0.9' });
    // Compiled again (new objects, the same content): the same answer; the caller's part is its own.
    const again = await networkEffect(compileNetwork(input), compileNetwork(cutting), { ip: '' });
    expect({ ...again, viewer: first.viewer }).toEqual(first);
    expect(again.viewer).toBeNull();
    // Another change of the same network is compared anew.
    const other = await networkEffect(compileNetwork(input), compileNetwork({ ...input, dns: ['192.0.2.53'] }), { ip: '' });
    expect(other.reach_count).toBe(0);
  });
});
