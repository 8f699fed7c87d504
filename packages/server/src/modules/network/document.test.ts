import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readDocument } from './asCode';
import { documentOf, firstDocumentDifference, pathText, snapshotFromDocument } from './document';

/** The example of docs/as-code.md: the first YAML block. */
const example = () => {
  const text = readFileSync(fileURLToPath(new URL('../../../../../docs/as-code.md', import.meta.url)), 'utf8');
  return /```yaml\n([\s\S]*?)```/.exec(text)![1]!;
};

describe('network documents (issue 36)', () => {
  it("reads the documentation's example, and writes it back the same from its snapshot", () => {
    const doc = readDocument(example());
    expect(doc.centers.map((c) => c.name)).toEqual(['sh-center', 'hz-center']);
    const areas = ['上海一区', '杭州一区'];
    const snapshot = snapshotFromDocument(doc, { frId: 7, areaId: (_path, name) => areas.indexOf(name) + 1 });
    expect(snapshot.members.find((m) => m.router_name === 'sh-center')).toMatchObject({ routing: 1, ov_main: 1, ov_backup: 2, quagga: 1, default_route: 1 });
    expect(snapshot.members.find((m) => m.router_name === 'hz-center')).toMatchObject({ routing: 2 });
    expect(snapshot.members.find((m) => m.router_name === 'shop-001')?.link_centers).toEqual(['sh-center']);
    const back = documentOf(snapshot, { frName: '华东POP', areaName: (id) => areas[id - 1] ?? null });
    // What the example writes at its default (dial modes, off) the export leaves as the schema fills it in.
    expect(firstDocumentDifference(back, doc)).toBeNull();
  });

  it('names the first difference by its path', () => {
    expect(pathText(['points', 3, 'centers', 0])).toBe('points[3].centers[0]');
    expect(firstDocumentDifference({ a: [1, { b: 2 }] }, { a: [1, { b: 3 }] })).toBe('a[1].b');
    expect(firstDocumentDifference({ a: 1 }, { a: 1, c: 2 })).toBe('c');
    expect(firstDocumentDifference({ a: [1] }, { a: [1] })).toBeNull();
  });

  it('refuses a name the document does not hold as a center', () => {
    const doc = readDocument(example().replace('centers: [sh-center]', 'centers: [shop-002]'));
    expect(() => snapshotFromDocument(doc, { frId: 7, areaId: () => 1 })).toThrow('points[0].centers[0]');
  });
});
