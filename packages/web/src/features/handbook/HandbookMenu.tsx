import { DOCUMENT_TYPE, type DocumentNode } from '@hublink/contract';
import { Tree, type TreeDataNode } from 'antd';
import { useMemo } from 'react';
import { keyOf } from './menuTree';

interface HandbookMenuProps {
  nodes: DocumentNode[];
  selected: number | null;
  expanded: string[];
  onExpand: (keys: string[]) => void;
  onOpen: (doc: DocumentNode) => void;
}

const toTree = (nodes: DocumentNode[]): TreeDataNode[] =>
  nodes.map((n) => ({ key: keyOf(n.id), title: n.title, isLeaf: n.type === DOCUMENT_TYPE.document, children: n.type === DOCUMENT_TYPE.section ? toTree(n.children) : undefined }));

/** The help menu as a tree: a section opens and closes, a document opens on the right. */
export function HandbookMenu({ nodes, selected, expanded, onExpand, onOpen }: HandbookMenuProps) {
  const data = useMemo(() => toTree(nodes), [nodes]);
  const byKey = useMemo(() => {
    const map = new Map<string, DocumentNode>();
    const add = (list: DocumentNode[]) => {
      for (const n of list) {
        map.set(keyOf(n.id), n);
        add(n.children);
      }
    };
    add(nodes);
    return map;
  }, [nodes]);

  const pick = (key: string) => {
    const node = byKey.get(key);
    if (!node) return;
    if (node.type === DOCUMENT_TYPE.document) onOpen(node);
    else onExpand(expanded.includes(key) ? expanded.filter((k) => k !== key) : [...expanded, key]);
  };

  return (
    <Tree
      blockNode
      showLine={false}
      treeData={data}
      selectedKeys={selected === null ? [] : [keyOf(selected)]}
      expandedKeys={expanded}
      onExpand={(keys) => onExpand(keys.map(String))}
      // The tree's own selection would clear on a second click: the page decides what is selected.
      onSelect={(_, info) => pick(String(info.node.key))}
    />
  );
}
