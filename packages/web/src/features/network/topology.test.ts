import { M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { link, member } from './fixtures';
import { CATEGORIES, TOPOLOGY_COLORS, topologyGraph, topologyOption } from './topology';

const category = (name: string) => CATEGORIES.findIndex((c) => c.name === name);

describe('topology', () => {
  const members = [
    member({ router_name: 'C1', member_type: 'center', online: 1 }),
    member({ router_name: 'P1', online: 1, ov_id: { main: 1, backup: 2, main_name: '华南', backup_name: '华北', priority: 3 } }),
    member({ router_name: 'P2', online: 0 }),
    member({ router_name: 'A1', router_type: 2, online: 1 }),
    member({ router_name: 'A2', router_type: 2, online: 0 }),
  ];
  const links = [
    link({ router_name: 'P1', center_router_name: 'C1', vpn_online: 1 }),
    link({ router_name: 'P2', center_router_name: 'C1', vpn_online: 0 }),
    link({ router_name: 'A1', center_router_name: 'C1', vpn_online: 2 }),
    link({ router_name: 'A2', center_router_name: 'C1', vpn_online: 0 }),
  ];

  it('shows every member but offline software ones, in the categories of spec 2, plus one node per POP area', () => {
    const { nodes } = topologyGraph(members, links);
    expect(nodes.map((n) => [n.name, n.category])).toEqual([
      ['C1', category(M.networkCategoryCenter)],
      ['P1', category(M.networkCategoryPoint)],
      ['P2', category(M.networkCategoryOffline)],
      ['A1', category(M.networkCategoryPoint)],
      ['华南', category(M.networkCategoryPop)],
      ['华北', category(M.networkCategoryPop)],
    ]);
  });

  it('draws a link green and solid while vpn_online is not 0, red and dashed at 0; links of hidden members are left out', () => {
    const { nodes, edges } = topologyGraph(members, links);
    const named = edges.map((e) => [nodes[e.source]!.name, nodes[e.target]!.name, e.lineStyle.color, e.lineStyle.type]);
    expect(named).toEqual([
      ['P1', 'C1', TOPOLOGY_COLORS.online, 'solid'],
      ['P2', 'C1', TOPOLOGY_COLORS.down, 'dashed'],
      ['A1', 'C1', TOPOLOGY_COLORS.online, 'solid'],
      ['P1', '华南', TOPOLOGY_COLORS.online, 'solid'],
      ['P1', '华北', TOPOLOGY_COLORS.online, 'solid'],
    ]);
  });

  it('a POP area used by several members is one node', () => {
    const ov = { main: 1, backup: 0, main_name: '华南', backup_name: '', priority: 3 };
    const { nodes, edges } = topologyGraph([member({ router_name: 'X', online: 1, ov_id: ov }), member({ router_name: 'Y', online: 0, ov_id: ov })], []);
    expect(nodes.map((n) => n.name)).toEqual(['X', 'Y', '华南']);
    expect(edges.map((e) => [e.source, e.target, e.lineStyle.type])).toEqual([
      [0, 2, 'solid'],
      [1, 2, 'dashed'],
    ]);
  });

  it('the option is a graph with the four categories as its legend', () => {
    const option = topologyOption(members, links);
    const series = (option.series as { type: string; categories: { name: string }[]; data: unknown[]; links: unknown[] }[])[0]!;
    expect(series.type).toBe('graph');
    expect(series.categories.map((c) => c.name)).toEqual([M.networkCategoryCenter, M.networkCategoryPoint, M.networkCategoryPop, M.networkCategoryOffline]);
    expect((option.legend as { data: string[] }[])[0]!.data).toEqual(series.categories.map((c) => c.name));
    expect(series.data).toHaveLength(6);
    expect(series.links).toHaveLength(5);
  });
});
