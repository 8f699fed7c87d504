import { M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { link, member } from '../../test/networkFixtures';
import { CATEGORIES, frameOf, keepRoam, TOPOLOGY_COLORS, topologyGraph, topologyView } from './topology';

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

  it('draws a link green solid while vpn_online is not 0 and red dashed at 0, thick to the main POP, thin to the backup one; links of hidden members are left out', () => {
    const { nodes, edges } = topologyGraph(members, links);
    const named = edges.map((e) => [nodes[e.source]!.name, nodes[e.target]!.name, e.lineStyle.color, e.lineStyle.type, e.main]);
    expect(named).toEqual([
      ['P1', 'C1', TOPOLOGY_COLORS.online, 'solid', true],
      ['P2', 'C1', TOPOLOGY_COLORS.down, 'dashed', true],
      ['A1', 'C1', TOPOLOGY_COLORS.online, 'solid', true],
      ['P1', '华南', TOPOLOGY_COLORS.online, 'solid', true],
      ['P1', '华北', TOPOLOGY_COLORS.online, 'solid', false],
    ]);
    expect(edges.find((e) => !e.main)!.lineStyle.width).toBeLessThan(edges.find((e) => e.main)!.lineStyle.width);
  });

  it('with two centers, a link to the center whose routing is not 1 is a thin backup line', () => {
    const two = [
      member({ router_name: 'C1', member_type: 'center', online: 1, routing: 1 }),
      member({ router_name: 'C2', member_type: 'center', online: 1, routing: 0 }),
      member({ router_name: 'P1', online: 1 }),
    ];
    const { nodes, edges } = topologyGraph(two, [
      link({ router_name: 'P1', center_router_name: 'C1', vpn_online: 1 }),
      link({ router_name: 'P1', center_router_name: 'C2', vpn_online: 0 }),
    ]);
    expect(edges.map((e) => [nodes[e.target]!.name, e.main, e.lineStyle.type, e.lineStyle.color])).toEqual([
      ['C1', true, 'solid', TOPOLOGY_COLORS.online],
      ['C2', false, 'dashed', TOPOLOGY_COLORS.down],
    ]);
  });

  it('an offline center stays a large, labelled center, drawn hollow with a red ring and called offline in its tooltip', () => {
    const { option } = topologyView([member({ router_name: 'C9', member_type: 'center', online: 0 }), member({ router_name: 'P9', online: 1 })], [], 1000);
    type Node = { name: string; symbolSize: number; itemStyle: { color: string; borderColor?: string }; label: { show: boolean; formatter: string }; tip: string };
    const [center, point] = (option.series as { data: Node[] }[])[0]!.data;
    expect(center!.symbolSize).toBeGreaterThan(point!.symbolSize);
    expect(center!.label.show).toBe(true);
    expect(center!.label.formatter).toContain(M.networkCategoryCenter);
    expect(center!.itemStyle).toEqual({ color: TOPOLOGY_COLORS.hollow, borderColor: TOPOLOGY_COLORS.offline, borderWidth: 3 });
    expect(center!.tip).toContain(M.networkOffline);
    expect(point!.itemStyle.borderColor).toBeUndefined();
    expect(point!.tip).toContain(M.networkOnline);
  });

  it('a POP area used by several members is one node', () => {
    const ov = { main: 1, backup: 0, main_name: '华南', backup_name: '', priority: 3 };
    const { nodes, edges } = topologyGraph([member({ router_name: 'X', online: 1, ov_id: ov }), member({ router_name: 'Y', online: 0, ov_id: ov })], []);
    expect(nodes.map((n) => n.name)).toEqual(['X', 'Y', '华南']);
    expect(edges.map((e) => [e.source, e.target, e.lineStyle.color])).toEqual([
      [0, 2, TOPOLOGY_COLORS.online],
      [1, 2, TOPOLOGY_COLORS.down],
    ]);
  });

  it('the option is a graph of our own layout with the four categories, zoom and pan, and no legend of its own', () => {
    const { option } = topologyView(members, links, 1000);
    const series = (option.series as { type: string; layout: string; roam: boolean; categories: { name: string }[]; data: { x: number; y: number }[]; links: unknown[] }[])[0]!;
    expect(series.type).toBe('graph');
    expect(series.layout).toBe('none');
    expect(series.roam).toBe(true);
    expect(series.categories.map((c) => c.name)).toEqual([M.networkCategoryCenter, M.networkCategoryPoint, M.networkCategoryPop, M.networkCategoryOffline]);
    expect(option.legend).toBeUndefined();
    expect(series.data).toHaveLength(6);
    expect(series.data.every((d) => Number.isFinite(d.x) && Number.isFinite(d.y))).toBe(true);
    expect(series.links).toHaveLength(5);
  });

  it('the series box is the nodes\' bounding box, so ECharts draws the layout one to one', () => {
    const { option } = topologyView(members, links, 1000);
    const s = (option.series as { left: number; top: number; width: number; height: number; data: { x: number; y: number }[] }[])[0]!;
    expect(s.left).toBe(Math.min(...s.data.map((d) => d.x)));
    expect(s.top).toBe(Math.min(...s.data.map((d) => d.y)));
    expect(s.left + s.width).toBe(Math.max(...s.data.map((d) => d.x)));
    expect(s.top + s.height).toBe(Math.max(...s.data.map((d) => d.y)));
  });
});

describe('the user’s zoom across polls', () => {
  const members = [member({ router_name: 'C1', member_type: 'center', online: 1 }), member({ router_name: 'P1', online: 1 })];
  const links = [link({ router_name: 'P1', center_router_name: 'C1', vpn_online: 1 })];
  const seriesOf = (option: ReturnType<typeof topologyView>['option']) => [option.series].flat()[0] as { zoom?: number; center?: unknown; data?: unknown[] };

  it('keeps the frame when only a state changes, and changes it when the layout does', () => {
    const before = topologyView(members, links, 900);
    const offline = topologyView([members[0]!, { ...members[1]!, online: 0 }], links, 900);
    expect(frameOf(offline)).toBe(frameOf(before));
    expect(frameOf(topologyView(members, links, 600))).not.toBe(frameOf(before));
    const more = [...members, member({ router_name: 'P2', online: 1 })];
    expect(frameOf(topologyView(more, links, 900))).not.toBe(frameOf(before));
  });

  it('carries the zoom and center over into the new option, and leaves an unzoomed one as it is', () => {
    const view = topologyView(members, links, 900);
    const kept = seriesOf(keepRoam(view.option, { zoom: 2.5, center: [120, 80] }));
    expect(kept).toMatchObject({ zoom: 2.5, center: [120, 80] });
    expect(kept.data).toEqual(seriesOf(view.option).data);
    expect(keepRoam(view.option, undefined)).toBe(view.option);
    expect(keepRoam(view.option, {})).toBe(view.option);
  });
});
