import { describe, expect, it } from 'vitest';
import { labelBox, layoutTopology, MAX_HEIGHT, MIN_HEIGHT, symbolBox, type Box, type LayoutInput } from './topologyLayout';

const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, width: number, height: number) => a.x >= 0 && a.y >= 0 && a.x + a.width <= width && a.y + a.height <= height;

const center = (name: string): LayoutInput => ({ kind: 'center', label: [name, '中心点'] });
const point = (name: string): LayoutInput => ({ kind: 'point', label: [name] });

describe('topology layout', () => {
  const small = [center('gw_east01'), point('gw_west01'), point('alice01'), point('bob01'), point('carol_long_name01')];

  for (const width of [1100, 900, 340, 200]) {
    it(`1 center and 4 points at ${width} px: every label shown, no label overlaps another label or a symbol, all inside`, () => {
      const { nodes, height } = layoutTopology(small, width);
      expect(nodes.every((n) => n.showLabel)).toBe(true);
      const labels = nodes.map((n) => labelBox(n)!);
      const symbols = nodes.map(symbolBox);
      for (let i = 0; i < nodes.length; i++) {
        for (let j = 0; j < nodes.length; j++) {
          if (i !== j) expect(overlap(labels[i]!, labels[j]!), `labels ${i} and ${j}`).toBe(false);
          if (i !== j) expect(overlap(labels[i]!, symbols[j]!), `label ${i} and symbol ${j}`).toBe(false);
        }
        expect(inside(labels[i]!, width, height)).toBe(true);
        expect(inside(symbols[i]!, width, height)).toBe(true);
      }
    });
  }

  it('puts centers in a row above the points, the center larger', () => {
    const { nodes } = layoutTopology(small, 1100);
    const [c, ...points] = nodes;
    for (const p of points) {
      expect(p.y).toBeGreaterThan(c!.y);
      expect(p.size).toBeLessThan(c!.size);
    }
    expect(new Set(points.map((p) => p.y)).size).toBe(1);
  });

  it('a single column of points zigzags, so a line from the center does not run through the points above', () => {
    const { nodes } = layoutTopology(small, 200);
    const points = nodes.slice(1);
    expect(new Set(points.map((p) => p.y)).size).toBe(4);
    for (let i = 1; i < points.length; i++) expect(points[i]!.x).not.toBe(points[i - 1]!.x);
  });

  it('is deterministic: the same input gives the same positions', () => {
    expect(layoutTopology(small, 1000)).toEqual(layoutTopology(small, 1000));
  });

  for (const width of [1100, 340]) {
    it(`2 centers and 200 points at ${width} px: every node inside the chart, no two symbols on top of each other, the chart at most ${MAX_HEIGHT} px`, () => {
      const input = [center('hq01'), center('hq02'), ...Array.from({ length: 200 }, (_, i) => point(`pt${String(i).padStart(3, '0')}`))];
      const { nodes, height } = layoutTopology(input, width);
      expect(height).toBeLessThanOrEqual(MAX_HEIGHT);
      expect(height).toBeGreaterThanOrEqual(MIN_HEIGHT);
      expect(nodes).toHaveLength(202);
      for (const n of nodes) expect(inside(symbolBox(n), width, height)).toBe(true);
      const points = nodes.slice(2).map(symbolBox);
      for (let i = 0; i < points.length; i++) for (let j = i + 1; j < points.length; j++) expect(overlap(points[i]!, points[j]!)).toBe(false);
      expect(nodes[0]!.showLabel && nodes[1]!.showLabel).toBe(true);
      for (const n of nodes.slice(2)) expect(n.y).toBeGreaterThan(nodes[0]!.y);
    });
  }

  it('POP areas get their own row above the centers', () => {
    const { nodes } = layoutTopology([{ kind: 'pop', label: ['华南'] }, ...small], 1000);
    expect(nodes[0]!.y).toBeLessThan(nodes[1]!.y);
  });
});
