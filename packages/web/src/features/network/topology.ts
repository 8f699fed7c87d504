import { M, ROUTER_TYPE, type NetworkLink, type NetworkMember } from '@hublink/contract';
import type { GraphSeriesOption } from 'echarts/charts';
import type { LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

export type TopologyOption = ComposeOption<GraphSeriesOption | LegendComponentOption | TooltipComponentOption>;

export const TOPOLOGY_COLORS = {
  center: '#1677ff',
  point: '#13c2c2',
  pop: '#722ed1',
  offline: '#bfbfbf',
  online: '#52c41a',
  down: '#ff4d4f',
} as const;

/** The graph's categories of spec 2 §2, in this order (a node's category is its index). */
export const CATEGORIES = [
  { name: M.networkCategoryCenter, itemStyle: { color: TOPOLOGY_COLORS.center } },
  { name: M.networkCategoryPoint, itemStyle: { color: TOPOLOGY_COLORS.point } },
  { name: M.networkCategoryPop, itemStyle: { color: TOPOLOGY_COLORS.pop } },
  { name: M.networkCategoryOffline, itemStyle: { color: TOPOLOGY_COLORS.offline } },
];
const CENTER = 0;
const POINT = 1;
const POP = 2;
const OFFLINE = 3;

/** The legend under the graph (spec 2 §2): three kinds of node, not logged in, and the two kinds of line. */
export const LEGEND = [
  { label: M.networkLegendCenter, color: TOPOLOGY_COLORS.center, line: false, dashed: false },
  { label: M.networkLegendLink, color: TOPOLOGY_COLORS.point, line: false, dashed: false },
  { label: M.networkLegendPop, color: TOPOLOGY_COLORS.pop, line: false, dashed: false },
  { label: M.networkLegendNotLogged, color: TOPOLOGY_COLORS.offline, line: false, dashed: false },
  { label: M.networkLegendOnline, color: TOPOLOGY_COLORS.online, line: true, dashed: false },
  { label: M.networkLegendOffline, color: TOPOLOGY_COLORS.down, line: true, dashed: true },
] as const;

export interface TopologyNode {
  name: string;
  category: number;
  symbolSize: number;
  /** What the tooltip adds under the name (a member's note). */
  note: string;
}

export interface TopologyEdge {
  source: number;
  target: number;
  lineStyle: { color: string; type: 'solid' | 'dashed'; width: number };
}

const NODE_SIZE = { center: 46, point: 32, pop: 40 };

/** Green solid while the link is up (vpn_online ≠ 0), red dashed while it is down. */
export const lineStyleOf = (up: boolean): TopologyEdge['lineStyle'] =>
  up ? { color: TOPOLOGY_COLORS.online, type: 'solid', width: 2 } : { color: TOPOLOGY_COLORS.down, type: 'dashed', width: 2 };

/**
 * Nodes and edges of the topology: every member (offline software members hidden), a node per POP area
 * the members use, a line per link between two shown members and a line from a member to its POP areas.
 */
export function topologyGraph(members: readonly NetworkMember[], links: readonly NetworkLink[]) {
  const nodes: TopologyNode[] = [];
  const index = new Map<string, number>();
  const shown = members.filter((m) => !(m.router_type === ROUTER_TYPE.software && m.online === 0));
  for (const m of shown) {
    const center = m.member_type === 'center';
    index.set(`m:${m.router_name}`, nodes.length);
    nodes.push({
      name: m.router_name,
      category: m.online === 0 ? OFFLINE : center ? CENTER : POINT,
      symbolSize: center ? NODE_SIZE.center : NODE_SIZE.point,
      note: m.note,
    });
  }
  const edges: TopologyEdge[] = [];
  for (const l of links) {
    const source = index.get(`m:${l.router_name}`);
    const target = index.get(`m:${l.center_router_name}`);
    if (source !== undefined && target !== undefined) edges.push({ source, target, lineStyle: lineStyleOf(l.vpn_online !== 0) });
  }
  for (const m of shown) {
    for (const pop of [m.ov_id.main_name, m.ov_id.backup_name]) {
      if (!pop) continue;
      let target = index.get(`p:${pop}`);
      if (target === undefined) {
        target = nodes.length;
        index.set(`p:${pop}`, target);
        nodes.push({ name: pop, category: POP, symbolSize: NODE_SIZE.pop, note: '' });
      }
      edges.push({ source: index.get(`m:${m.router_name}`)!, target, lineStyle: lineStyleOf(m.online !== 0) });
    }
  }
  return { nodes, edges };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A node's name and note (lines have no tooltip). */
function tooltipOf(p: unknown): string {
  const { dataType, data } = p as { dataType?: string; data?: Partial<TopologyNode> };
  if (dataType !== 'node' || !data?.name) return '';
  return data.note ? `${escape(data.name)}<br/>${escape(data.note)}` : escape(data.name);
}

/** The ECharts option of the topology: a force-laid graph with the four categories as its legend. */
export function topologyOption(members: readonly NetworkMember[], links: readonly NetworkLink[]): TopologyOption {
  const { nodes, edges } = topologyGraph(members, links);
  return {
    tooltip: { trigger: 'item', formatter: tooltipOf },
    legend: [{ data: CATEGORIES.map((c) => c.name), bottom: 0 }],
    series: [
      {
        type: 'graph',
        layout: 'force',
        roam: true,
        draggable: true,
        categories: CATEGORIES,
        data: nodes,
        links: edges,
        label: { show: true, position: 'bottom' },
        force: { repulsion: 320, edgeLength: [80, 160] },
        emphasis: { focus: 'adjacency' },
      },
    ],
  };
}
