import { DOCUMENT_TYPE, M, type DocumentLink, type DocumentNode } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { notFound } from '../../core/errors';
import type { StoredStream } from '../../core/storage';
import { IMAGE_TENANT, imageKey } from './import';

/** The help menu as a tree, in menu order (spec 3 §3: id, fid, title, type, children). */
export async function menu(ctx: Ctx): Promise<DocumentNode[]> {
  const rows = await ctx.db.selectFrom('document_node').select(['id', 'fid', 'title', 'type']).orderBy('sort').orderBy('id').execute();
  const nodes = new Map<number, DocumentNode>();
  for (const r of rows) {
    nodes.set(r.id, { id: r.id, fid: r.fid, title: r.title, type: r.type === DOCUMENT_TYPE.section ? DOCUMENT_TYPE.section : DOCUMENT_TYPE.document, children: [] });
  }
  const top: DocumentNode[] = [];
  for (const node of nodes.values()) (nodes.get(node.fid)?.children ?? top).push(node);
  return top;
}

/** A document with its neighbours in menu order (before_doc, after_doc: { id, title } or null); 204 for anything else. */
export async function info(ctx: Ctx, id: number) {
  const doc = await ctx.db
    .selectFrom('document_node')
    .innerJoin('document_page', 'document_page.node_id', 'document_node.id')
    .select(['document_node.title', 'document_node.sort', 'document_page.content'])
    .where('document_node.id', '=', id)
    .where('document_node.type', '=', DOCUMENT_TYPE.document)
    .executeTakeFirst();
  if (!doc) throw notFound(M.documentNotFound);
  const neighbour = async (side: 'before' | 'after'): Promise<DocumentLink> => {
    const row = await ctx.db
      .selectFrom('document_node')
      .select(['id', 'title'])
      .where('type', '=', DOCUMENT_TYPE.document)
      .where('sort', side === 'before' ? '<' : '>', doc.sort)
      .orderBy('sort', side === 'before' ? 'desc' : 'asc')
      .limit(1)
      .executeTakeFirst();
    return row ?? null;
  };
  return { title: doc.title, content: doc.content, before_doc: await neighbour('before'), after_doc: await neighbour('after') };
}

/** An image of the handbook, as stored by the import; 204 when there is none by that name. */
export async function image(ctx: Ctx, name: string): Promise<StoredStream> {
  const stored = await ctx.storage.stream(IMAGE_TENANT, imageKey(name));
  if (!stored) throw notFound(M.documentImageNotFound);
  return stored;
}
