import { DOCUMENT_TYPE, type DocumentNode } from '@hublink/contract';

/** The documents of the menu in its order: the order of the tree and of previous/next. */
export function documentsOf(nodes: DocumentNode[]): DocumentNode[] {
  return nodes.flatMap((n) => (n.type === DOCUMENT_TYPE.document ? [n] : documentsOf(n.children)));
}

/** The sections a node is in, from the top, or null when the menu has no node of that id. */
export function sectionsAbove(nodes: DocumentNode[], id: number, above: DocumentNode[] = []): DocumentNode[] | null {
  for (const n of nodes) {
    if (n.id === id) return above;
    const inner = sectionsAbove(n.children, id, [...above, n]);
    if (inner) return inner;
  }
  return null;
}

/** The key of a node in the tree. */
export const keyOf = (id: number) => String(id);
