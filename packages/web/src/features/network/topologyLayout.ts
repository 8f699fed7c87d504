/**
 * Where each node of the topology sits, computed here rather than by a force layout so the picture is the
 * same on every load and a test can check it: POP areas in a row at the top, centers in a row under them,
 * points in a grid below. Coordinates are pixels of a chart `width` wide; the answer says how tall it is.
 */

export type NodeKind = 'center' | 'point' | 'pop';

export interface LayoutInput {
  kind: NodeKind;
  /** The label's lines (a center's has two: its name and the word center). */
  label: readonly string[];
}

export interface Placed {
  x: number;
  y: number;
  size: number;
  /** False in a grid too dense for names: the name then shows on hover. */
  showLabel: boolean;
  label: readonly string[];
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const FONT_SIZE = 12;
export const LINE_HEIGHT = 16;
/** ECharts' gap between a symbol and a label at position 'bottom'. */
export const LABEL_DISTANCE = 5;
/** The label's white backing reaches this far beyond its text on each side (so lines do not run through names). */
export const LABEL_PADDING = 2;
export const SYMBOL_SIZE = { center: 52, pop: 40, point: 30, densePoint: 12 };
export const MIN_HEIGHT = 320;
export const MAX_HEIGHT = 720;

const PAD = 28;
const GAP_X = 18;
const GAP_Y = 18;
/** The room between the centers and the points, so their lines can be followed. */
const BAND = 56;

/** A label's width as the canvas draws it at FONT_SIZE: CJK characters are square, the rest about 0.6 em. */
export function textWidth(text: string): number {
  let w = 0;
  for (const ch of text) w += ch.codePointAt(0)! >= 0x2e80 ? FONT_SIZE : FONT_SIZE * 0.62;
  return Math.ceil(w);
}

const labelWidth = (label: readonly string[]) => Math.max(0, ...label.map(textWidth)) + 2 * LABEL_PADDING;
const labelHeight = (label: readonly string[]) => label.length * LINE_HEIGHT;

/** The box the label of a placed node covers (empty when it is not shown). */
export function labelBox(p: Placed): Box | undefined {
  if (!p.showLabel || p.label.length === 0) return undefined;
  const width = labelWidth(p.label);
  return { x: p.x - width / 2, y: p.y + p.size / 2 + LABEL_DISTANCE, width, height: labelHeight(p.label) };
}

export const symbolBox = (p: Placed): Box => ({ x: p.x - p.size / 2, y: p.y - p.size / 2, width: p.size, height: p.size });

interface Grid {
  cols: number;
  rows: number;
  cellWidth: number;
  rowHeight: number;
  widest: number;
}

/** The columns and rows a set of nodes needs when each cell fits the widest label (or only the symbol). */
function grid(count: number, usable: number, size: number, labels: readonly (readonly string[])[] | undefined): Grid {
  const widest = labels ? Math.max(size, ...labels.map(labelWidth)) : size;
  const cols = Math.max(1, Math.min(count, Math.floor((usable + GAP_X) / (widest + GAP_X))));
  const lines = labels ? Math.max(0, ...labels.map((l) => l.length)) : 0;
  const rowHeight = size + (lines ? LABEL_DISTANCE + lines * LINE_HEIGHT : 0) + GAP_Y;
  return { cols, rows: Math.ceil(count / cols), cellWidth: usable / cols, rowHeight, widest };
}

/**
 * Places `items` from `top` down in `g`'s cells, each row centered; returns the y under the last row.
 * A single column zigzags left and right, or every line from above would run through the nodes below.
 */
function place(items: readonly number[], top: number, g: Grid, width: number, size: number, showLabel: boolean, inputs: readonly LayoutInput[], out: Placed[]) {
  const zigzag = g.cols === 1 && items.length > 1 ? Math.max(0, Math.min(width / 4, (width - g.widest) / 2 - 4)) : 0;
  items.forEach((node, i) => {
    const row = Math.floor(i / g.cols);
    const inRow = Math.min(g.cols, items.length - row * g.cols);
    const col = i % g.cols;
    const left = (width - inRow * g.cellWidth) / 2;
    const x = left + g.cellWidth * (col + 0.5) + (i % 2 === 0 ? -zigzag : zigzag);
    out[node] = { x, y: top + row * g.rowHeight + size / 2, size, showLabel, label: inputs[node]!.label };
  });
  return top + g.rows * g.rowHeight;
}

/** The position of every node for a chart `width` pixels wide, and the chart's height (MIN_HEIGHT…MAX_HEIGHT). */
export function layoutTopology(inputs: readonly LayoutInput[], width: number): { nodes: Placed[]; height: number } {
  const usable = Math.max(1, width - 2 * PAD);
  const byKind = (kind: NodeKind) => inputs.flatMap((n, i) => (n.kind === kind ? [i] : []));
  const out: Placed[] = [];
  let y = PAD;
  for (const kind of ['pop', 'center'] as const) {
    const items = byKind(kind);
    if (items.length === 0) continue;
    const size = SYMBOL_SIZE[kind];
    y = place(items, y, grid(items.length, usable, size, items.map((i) => inputs[i]!.label)), width, size, true, inputs, out);
  }
  const points = byKind('point');
  if (points.length > 0) {
    if (y > PAD) y += BAND;
    const room = MAX_HEIGHT - PAD - y;
    const labelled = grid(points.length, usable, SYMBOL_SIZE.point, points.map((i) => inputs[i]!.label));
    if (labelled.rows * labelled.rowHeight <= room) {
      y = place(points, y, labelled, width, SYMBOL_SIZE.point, true, inputs, out);
    } else {
      // Too many names for the room: small symbols without names, rows squeezed until they fit.
      const size = SYMBOL_SIZE.densePoint;
      const dense = grid(points.length, usable, size, undefined);
      dense.rowHeight = Math.max(size + 2, Math.min(dense.rowHeight, room / dense.rows));
      y = place(points, y, dense, width, size, false, inputs, out);
    }
  }
  const used = Math.ceil(y - GAP_Y + PAD);
  // A small network sits in the middle of the least height, not at its top.
  const shift = Math.max(0, (MIN_HEIGHT - used) / 2);
  for (const p of out) p.y += shift;
  return { nodes: out, height: Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, used)) };
}
