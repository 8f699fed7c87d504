import { Parser } from 'marked';
import { DOCUMENT_TYPE, handbookHref } from '@hublink/contract';
import type { Ctx } from '../../core/context';
import { sanitizeRichText } from '../../core/richText';
import { readHandbook, type SourceDocument, type SourceNode } from './source';

/** Where images of the handbook are kept: the service's own files (tenant 0). */
export const IMAGE_TENANT = 0;
export const imageKey = (name: string) => `handbook/${name}`;

export interface ImportSummary {
  sections: number;
  documents: number;
  images: number;
}

/** The menu in order, depth first, each node with the key of its section (null at the top). */
function flatten(nodes: SourceNode[], parent: string | null = null, out: { node: SourceNode; parent: string | null }[] = []) {
  for (const node of nodes) {
    out.push({ node, parent });
    if (node.type === DOCUMENT_TYPE.section) flatten(node.children, node.key, out);
  }
  return out;
}

/**
 * Replaces the help documents with those of the handbook folder `dir` (index.md and the files it
 * lists): the whole menu in one transaction, so readers see the old menu or the new one. A section or
 * document keeps its id while its key does (a document's file path, a section's titles from the top),
 * so links and the console's query ids survive a re-import; what left the menu is deleted. Markdown
 * is rendered with marked and sanitised with the rules of announcements, so nothing in it executes;
 * images are stored by their digest and served by GET /document/image. Throws HandbookError, having
 * changed nothing, when the folder cannot be imported.
 */
export async function importDocuments(ctx: Ctx, dir: string): Promise<ImportSummary> {
  const book = await readHandbook(dir);
  // Images first: their names are their digests, so storing one twice or for nothing does no harm.
  for (const image of book.images.values()) await ctx.storage.put(IMAGE_TENANT, imageKey(image.name), image.body, image.contentType);

  const order = flatten(book.nodes);
  const now = Date.now();
  await ctx.db.transaction().execute(async (trx) => {
    const existing = new Map((await trx.selectFrom('document_node').select(['id', 'path']).execute()).map((r) => [r.path, r.id]));
    const keep = new Set(order.map((o) => o.node.key));
    const gone = [...existing].filter(([key]) => !keep.has(key)).map(([, id]) => id);
    if (gone.length) {
      await trx.deleteFrom('document_page').where('node_id', 'in', gone).execute();
      await trx.deleteFrom('document_node').where('id', 'in', gone).execute();
    }

    const ids = new Map<string, number>();
    for (const [sort, { node, parent }] of order.entries()) {
      const row = { fid: parent === null ? 0 : ids.get(parent)!, title: node.title, type: node.type, sort, update_time: now };
      const id = existing.get(node.key);
      if (id === undefined) {
        ids.set(node.key, (await trx.insertInto('document_node').values({ path: node.key, ...row }).returning('id').executeTakeFirstOrThrow()).id);
      } else {
        await trx.updateTable('document_node').set(row).where('id', '=', id).execute();
        ids.set(node.key, id);
      }
    }

    const documents = order.map((o) => o.node).filter((n): n is SourceDocument => n.type === DOCUMENT_TYPE.document);
    const byKey = new Map(documents.map((d) => [d.key, d]));
    await trx.deleteFrom('document_page').execute();
    for (const doc of documents) {
      for (const { token, key } of doc.links) token.href = handbookHref(ids.get(key)!, byKey.get(key)!.title);
      const content = sanitizeRichText(new Parser({ gfm: true }).parse(doc.tokens));
      await trx.insertInto('document_page').values({ node_id: ids.get(doc.key)!, content }).execute();
    }
  });

  const documents = order.filter((o) => o.node.type === DOCUMENT_TYPE.document).length;
  return { sections: order.length - documents, documents, images: book.images.size };
}

/**
 * On start: a database without help documents gets the handbook (a fresh install). A folder that is
 * missing or broken is logged and the server starts without them; two instances starting at once may
 * both try, and the one that loses finds the documents there.
 */
export async function importWhenEmpty(ctx: Ctx): Promise<void> {
  const any = async () => (await ctx.db.selectFrom('document_node').select('id').limit(1).executeTakeFirst()) !== undefined;
  const dir = ctx.config.handbookDir;
  // '' is no handbook at all: the API tests' apps, which do not need one on every start. Of several
  // workers on one machine (HUBLINK_WORKERS), the first imports.
  if (!dir || ctx.config.workerIndex !== 0 || (await any())) return;
  try {
    const summary = await importDocuments(ctx, dir);
    ctx.log.info({ dir, ...summary }, 'help documents imported');
  } catch (err) {
    if (await any()) return;
    ctx.log.error({ err, dir }, 'help documents not imported: the handbook stays empty until `hublink ops docs import`');
  }
}
