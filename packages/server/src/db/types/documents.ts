import type { Generated } from 'kysely';

/** The help documents: the document module owns them. */
export interface DocumentsSchema {
  document_node: DocumentNodeTable;
  document_page: DocumentPageTable;
}

/** A node of the help menu: a section (type 1) or a document (type 2), named by its path in the handbook. */
export interface DocumentNodeTable {
  id: Generated<number>;
  path: string;
  fid: number;
  title: string;
  type: number;
  sort: number;
  update_time: number;
}

/** A document's content: HTML rendered from its Markdown and sanitised. */
export interface DocumentPageTable {
  node_id: number;
  content: string;
}
