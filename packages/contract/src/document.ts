import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { idField } from './fields';
import { LIMITS } from './limits';
import { BM } from './messages';

/** A node of the help menu (spec 3 §3): a section holding others, or a document (type 2). */
export const DOCUMENT_TYPE = { section: 1, document: 2 } as const;

export interface DocumentNode {
  id: number;
  /** The section it is in; 0 at the top of the menu. */
  fid: number;
  title: string;
  type: (typeof DOCUMENT_TYPE)[keyof typeof DOCUMENT_TYPE];
  /** In menu order; a document has none. */
  children: DocumentNode[];
}

/**
 * A node and what it holds, to `depth` levels. The menu is never deeper than LIMITS.documentDepthMax
 * (the import refuses a deeper one), so the schema is written out to that depth rather than recursive:
 * the OpenAPI document then describes it whole, without references to shared schemas.
 */
const nodeTo = (depth: number): z.ZodType<DocumentNode> =>
  z.object({
    id: z.number(),
    fid: z.number(),
    title: z.string(),
    type: z.union([z.literal(DOCUMENT_TYPE.section), z.literal(DOCUMENT_TYPE.document)]),
    children: depth > 1 ? z.array(nodeTo(depth - 1)) : z.array(z.never()),
  });

export const documentNode = nodeTo(LIMITS.documentDepthMax);

/** GET /document/menu: the whole help menu, in order (open without sign-in). */
export const documentMenu = defineEndpoint({
  path: '/document/menu',
  method: 'GET',
  access: 'public',
  response: z.array(documentNode),
});

/** The document before or after one in menu order, or null at either end. */
export const documentLink = z.object({ id: z.number(), title: z.string() }).nullable();
export type DocumentLink = z.infer<typeof documentLink>;

/**
 * GET /document/info: one document, its content as sanitised HTML, and its neighbours in menu order.
 * An unknown id, or a section's, answers 204.
 */
export const documentInfo = defineEndpoint({
  path: '/document/info',
  method: 'GET',
  access: 'public',
  query: z.object({ id: idField() }),
  response: z.object({ title: z.string(), content: z.string(), before_doc: documentLink, after_doc: documentLink }),
});

/** Names of the images documents show: the content's digest and its kind, so a name never changes meaning. */
export const DOCUMENT_IMAGE_NAME = /^[0-9a-f]{32}\.(png|jpg|gif|webp)$/;

/** GET /document/image: an image of a help document (the import stores them); 204 for an unknown name. */
export const documentImage = defineEndpoint({
  path: '/document/image',
  method: 'GET',
  access: 'public',
  query: z.object({ name: z.string({ error: BM.validationFailed }).regex(DOCUMENT_IMAGE_NAME, BM.validationFailed) }),
  response: { file: 'image/*' },
});

/** Where a document opens in the console: the handbook with its id and title in the query (spec 3 §2). */
export const handbookHref = (id: number, title: string) => `/handbook?${new URLSearchParams({ id: String(id), title }).toString()}`;
