import { type NetworkLink, type NetworkMember, networkMessages, ROUTER_TYPE } from '@hublink/contract';
import type { GraphSeriesOption } from 'echarts/charts';
import type { TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { FONT_SIZE, LABEL_PADDING, layoutTopology, LINE_HEIGHT, type NodeKind } from './topologyLayout';

export type TopologyOption = ComposeOption<GraphSeriesOption | TooltipComponentOption>;

export const TOPOLOGY_COLORS = {
  center: '#1677ff',
  point: '#13c2c2',
  pop: '#722ed1',
  offline: '#ff4d4f',
  online: '#52c41a',
  down: '#ff4d4f',
  line: '#8c8c8c',
  hollow: '#ffffff',
} as const;

/** A shape per kind, so the kinds differ without their colours too. */
export const SYMBOLS: Record<NodeKind, string> = { center: 'roundRect', point: 'circle', pop: 'diamond' };

/** The graph's categories of spec 2 §2, in this order (a node's category is its index). */
export const CATEGORIES = [
  { name: networkMessages.networkCategoryCenter, itemStyle: { color: TOPOLOGY_COLORS.center } },
  { name: networkMessages.networkCategoryPoint, itemStyle: { color: TOPOLOGY_COLORS.point } },
  { name: networkMessages.networkCategoryPop, itemStyle: { color: TOPOLOGY_COLORS.pop } },
  { name: networkMessages.networkCategoryOffline, itemStyle: { color: TOPOLOGY_COLORS.offline } },
];
const CENTER = 0;
const POINT = 1;
const POP = 2;
const OFFLINE = 3;

export type LegendItem =
  | { label: string; node: NodeKind | 'offline' }
  | { label: string; line: { tone: 'online' | 'offline' | 'neutral'; dashed: boolean; thin: boolean } };

/** The one legend, under the graph: spec 2 §2's six items, then the main (thick) and backup (thin) lines. */
export const LEGEND: readonly LegendItem[] = [
  { label: networkMessages.networkLegendCenter, node: 'center' },
  { label: networkMessages.networkLegendLink, node: 'point' },
  { label: networkMessages.networkLegendPop, node: 'pop' },
  { label: networkMessages.networkLegendNotLogged, node: 'offline' },
  { label: networkMessages.networkLegendOnline, line: { tone: 'online', dashed: false, thin: false } },
  { label: networkMessages.networkLegendOffline, line: { tone: 'offline', dashed: true, thin: false } },
  { label: networkMessages.networkLegendMainLine, line: { tone: 'neutral', dashed: false, thin: false } },
  { label: networkMessages.networkLegendBackupLine, line: { tone: 'neutral', dashed: false, thin: true } },
];

export interface TopologyNode {
  name: string;
  category: number;
  kind: NodeKind;
  online: boolean;
  /** What the tooltip adds under the name (a member's note). */
  note: string;
}

export interface TopologyEdge {
  source: number;
  target: number;
  /** A main line (thick) or a backup one (thin). */
  main: boolean;
  up: boolean;
  lineStyle: { color: string; type: 'solid' | 'dashed'; width: number };
}

/**
 * Spec 2 §2: a line is green solid while vpn_online is not 0 and red dashed at 0. The weight says the
 * kind: a main line is thick, a backup one thin.
 */
export const lineStyleOf = (up: boolean, main: boolean): TopologyEdge['lineStyle'] => ({
  color: up ? TOPOLOGY_COLORS.online : TOPOLOGY_COLORS.down,
  type: up ? 'solid' : 'dashed',
  width: main ? 3 : 1.2,
});

/**
 * Nodes and edges of the topology: every member (offline software members hidden), a node per POP area
 * the members use, a line per link between two shown members and a line from a member to its POP areas.
 * With two or more centers, a link to a center whose routing is not 1 is a backup line (spec 2 §3).
 */
export function topologyGraph(members: readonly NetworkMember[], links: readonly NetworkLink[]) {
  const nodes: TopologyNode[] = [];
  const index = new Map<string, number>();
  const shown = members.filter((m) => !(m.router_type === ROUTER_TYPE.software && m.online === 0));
  const centers = members.filter((m) => m.member_type === 'center');
  const backupCenters = new Set(centers.length >= 2 ? centers.filter((m) => m.routing !== 1).map((m) => m.router_name) : []);
  for (const m of shown) {
    const center = m.member_type === 'center';
    index.set(`m:${m.router_name}`, nodes.length);
    nodes.push({
      name: m.router_name,
      category: m.online === 0 ? OFFLINE : center ? CENTER : POINT,
      kind: center ? 'center' : 'point',
      online: m.online !== 0,
      note: m.note,
    });
  }
  const edges: TopologyEdge[] = [];
  const edge = (source: number, target: number, up: boolean, main: boolean) => edges.push({ source, target, up, main, lineStyle: lineStyleOf(up, main) });
  for (const l of links) {
    const source = index.get(`m:${l.router_name}`);
    const target = index.get(`m:${l.center_router_name}`);
    if (source !== undefined && target !== undefined) edge(source, target, l.vpn_online !== 0, !backupCenters.has(l.center_router_name));
  }
  for (const m of shown) {
    for (const [pop, main] of [
      [m.ov_id.main_name, true],
      [m.ov_id.backup_name, false],
    ] as const) {
      if (!pop) continue;
      let target = index.get(`p:${pop}`);
      if (target === undefined) {
        target = nodes.length;
        index.set(`p:${pop}`, target);
        nodes.push({ name: pop, category: POP, kind: 'pop', online: true, note: '' });
      }
      edge(index.get(`m:${m.router_name}`)!, target, m.online !== 0, main);
    }
  }
  return { nodes, edges };
}

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const KIND_TEXT: Record<NodeKind, string> = { center: networkMessages.networkCategoryCenter, point: networkMessages.networkCategoryPoint, pop: networkMessages.networkCategoryPop };

/** A center's label says it is one whatever its state; an offline center's says that too. */
export function labelOf(n: TopologyNode): string[] {
  if (n.kind !== 'center') return [n.name];
  return [n.name, n.online ? networkMessages.networkCategoryCenter : `${networkMessages.networkCategoryCenter} · ${networkMessages.networkOffline}`];
}

/** A node's tooltip: name, kind, state and note; a line's: its two ends, main or backup, and state. */
export function tooltipOf(p: unknown): string {
  const { dataType, data } = p as { dataType?: string; data?: { tip?: string } };
  return dataType === 'node' || dataType === 'edge' ? (data?.tip ?? '') : '';
}

const stateText = (up: boolean) => (up ? networkMessages.networkOnline : networkMessages.networkOffline);

function nodeTip(n: TopologyNode): string {
  const lines = [`<b>${escape(n.name)}</b>`, n.kind === 'pop' ? KIND_TEXT.pop : `${KIND_TEXT[n.kind]} · ${stateText(n.online)}`];
  if (n.note) lines.push(escape(n.note));
  return lines.join('<br/>');
}

/** The ECharts option of the topology for a chart `width` pixels wide, and the height it needs. */
export function topologyView(members: readonly NetworkMember[], links: readonly NetworkLink[], width: number): { option: TopologyOption; height: number } {
  const { nodes, edges } = topologyGraph(members, links);
  const labels = nodes.map(labelOf);
  const layout = layoutTopology(
    nodes.map((n, i) => ({ kind: n.kind, label: labels[i]! })),
    width,
  );
  const data = nodes.map((n, i) => {
    const at = layout.nodes[i]!;
    const color = CATEGORIES[n.kind === 'center' ? CENTER : n.kind === 'pop' ? POP : POINT]!.itemStyle.color;
    return {
      name: n.name,
      category: n.category,
      x: at.x,
      y: at.y,
      symbol: SYMBOLS[n.kind],
      symbolSize: at.size,
      // Offline: hollow with a red ring, so it reads as a state and not as another kind.
      itemStyle: n.online ? { color } : { color: TOPOLOGY_COLORS.hollow, borderColor: TOPOLOGY_COLORS.offline, borderWidth: 3 },
      label: {
        show: at.showLabel,
        formatter: n.kind === 'center' ? `{name|${labels[i]![0]}}\n{tag|${labels[i]![1]}}` : labels[i]![0],
        color: n.online ? '#262626' : TOPOLOGY_COLORS.offline,
      },
      tip: nodeTip(n),
    };
  });
  const links_ = edges.map((e) => ({
    source: e.source,
    target: e.target,
    lineStyle: e.lineStyle,
    tip: `${escape(nodes[e.source]!.name)} — ${escape(nodes[e.target]!.name)}<br/>${e.main ? networkMessages.networkLegendMainLine : networkMessages.networkLegendBackupLine} · ${stateText(e.up)}`,
  }));
  // The series' box is the nodes' bounding box, so ECharts draws our pixels one to one.
  const xs = layout.nodes.map((p) => p.x);
  const ys = layout.nodes.map((p) => p.y);
  const box = (v: number[]) => {
    if (v.length === 0) return { at: 0, size: 2 };
    const min = Math.min(...v);
    const size = Math.max(...v) - min;
    return size === 0 ? { at: min - 1, size: 2 } : { at: min, size };
  };
  const bx = box(xs);
  const by = box(ys);
  const dense = layout.nodes.some((p) => !p.showLabel);
  return {
    height: layout.height,
    option: {
      // The layout is fixed: nothing to animate, and a poll redraws at once.
      animation: false,
      tooltip: { trigger: 'item', formatter: tooltipOf },
      series: [
        {
          type: 'graph',
          layout: 'none',
          roam: true,
          scaleLimit: { min: 0.4, max: 6 },
          left: bx.at,
          top: by.at,
          width: bx.size,
          height: by.size,
          categories: CATEGORIES,
          data,
          links: links_,
          label: {
            position: 'bottom',
            backgroundColor: 'rgba(255, 255, 255, 0.9)',
            padding: [0, LABEL_PADDING],
            borderRadius: 2,
            fontSize: FONT_SIZE,
            lineHeight: LINE_HEIGHT,
            rich: { name: { fontWeight: 'bold', fontSize: FONT_SIZE, lineHeight: LINE_HEIGHT }, tag: { fontSize: FONT_SIZE, lineHeight: LINE_HEIGHT, color: TOPOLOGY_COLORS.center } },
          },
          lineStyle: { opacity: dense ? 0.25 : 0.9 },
          emphasis: { focus: 'adjacency', label: { show: true }, lineStyle: { opacity: 1 } },
        },
      ],
    },
  };
}

/** Where the user has zoomed and panned the graph: ECharts keeps both in the series' option. */
export interface Roam {
  zoom?: number;
  center?: (number | string)[];
}

/** The frame a view draws in (chart height and the nodes' box): while it stays, so may the user's zoom. */
export function frameOf(view: { option: TopologyOption; height: number }): string {
  const series = ([view.option.series].flat()[0] ?? {}) as { left?: unknown; top?: unknown; width?: unknown; height?: unknown };
  return JSON.stringify([view.height, series.left, series.top, series.width, series.height]);
}

/** The option with the user's zoom and pan carried over (a poll changed states, not the layout). */
export function keepRoam(option: TopologyOption, roam: Roam | undefined): TopologyOption {
  if (!roam || (roam.zoom === undefined && roam.center === undefined)) return option;
  const [series, ...rest] = [option.series].flat().filter((s) => s !== undefined);
  if (!series) return option;
  const kept = { ...(roam.zoom !== undefined && { zoom: roam.zoom }), ...(roam.center !== undefined && { center: roam.center }) };
  return { ...option, series: [{ ...series, ...kept } as GraphSeriesOption, ...rest] };
}
