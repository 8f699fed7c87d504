import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { plannedLinks } from './plan';

/* The compiler's golden outputs (issue 12) are the JSON and OpenVPN files a real server sends the agent. */
const golden = join(__dirname, '..', '..', 'server', 'src', 'compiler', 'golden');
const members = (name: string) => JSON.parse(readFileSync(join(golden, `${name}.expected.json`), 'utf8')) as Record<string, unknown>[];

describe('plannedLinks on the compiler output', () => {
  it('a center serves the points of both services; a point dials its center, through a POP when that comes first', () => {
    const [center, store1, store2] = members('pop-first');
    expect(plannedLinks(center!).map((l) => [l.conf, l.peer, l.vpn_ip, l.role])).toEqual([
      ['router.conf', 'store1', '100.64.2.158', 'server'],
      ['router.conf', 'store2', '100.64.13.199', 'server'],
      ['software.conf', 'phone1', '100.64.19.216', 'server'],
    ]);
    expect(plannedLinks(store1!)).toEqual([{ conf: 'center-center1.conf', peer: 'center1', vpn_ip: '100.64.2.158', role: 'client', between_centers: false, pop: { name: '华南' } }]);
    expect(plannedLinks(store2!)[0]!.pop).toBeNull();
  });

  it('names only .conf files the renderer writes for that member', () => {
    for (const file of readdirSync(golden).filter((f) => f.endsWith('.expected.json'))) {
      const name = file.replace('.expected.json', '');
      const rendered = new Set([...readFileSync(join(golden, `${name}.ovpn`), 'utf8').matchAll(/^### (.+)$/gm)].map((m) => m[1]));
      for (const member of members(name)) {
        for (const link of plannedLinks(member)) expect(rendered, `${name} ${String(member.router_name)}`).toContain(`${String(member.router_name)}/${link.conf}`);
      }
    }
  });

  it('reads a twin-center link at both ends, and one tunnel per center of a main-backup point', () => {
    const twin = members('twin-center').filter((m) => m.member_type === 'center');
    const links = twin.flatMap((m) => plannedLinks(m).filter((l) => l.between_centers));
    expect(links.map((l) => [l.conf, l.role]).sort()).toEqual([
      ['link-bj.conf', 'client'],
      ['link-sh.conf', 'server'],
    ]);
    const shop1 = members('hub-main-backup').find((m) => m.router_name === 'shop1')!;
    expect(plannedLinks(shop1).map((l) => [l.conf, l.peer])).toEqual([
      ['center-hq1.conf', 'hq1'],
      ['center-hq2.conf', 'hq2'],
    ]);
  });

  it('a malformed config means no links, not a crash', () => {
    expect(plannedLinks({})).toEqual([]);
    expect(plannedLinks({ member_type: 'center', services: 'x', links: 3 })).toEqual([]);
    expect(plannedLinks({ member_type: 'point', tunnels: [null, { centers: [{}] }] })).toEqual([]);
  });
});
