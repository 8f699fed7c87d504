import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Lexer, walkTokens, type Token, type Tokens } from 'marked';
import { DOCUMENT_TYPE, documentImage, endpointUrl, LIMITS } from '@hublink/contract';

/**
 * The handbook as it lies in its folder: `index.md` holds one Markdown list, the menu. An item that is a
 * link to a .md file is a document (the link text its title); an item of plain text is a section, and
 * its nested list what it holds. Documents link to each other and to images by relative paths.
 */
export interface SourceSection {
  type: typeof DOCUMENT_TYPE.section;
  /** 'section:' and the titles from the top, so a section keeps its id while its place and title do. */
  key: string;
  title: string;
  children: SourceNode[];
}

export interface SourceDocument {
  type: typeof DOCUMENT_TYPE.document;
  /** 'doc:' and the file's path in the folder, so a document keeps its id while it keeps its file. */
  key: string;
  title: string;
  /** Its Markdown, lexed: image sources already point where the server serves them. */
  tokens: Token[];
  /** Its links to other documents; the import points them at the console once it knows their ids. */
  links: { token: Tokens.Link; key: string }[];
}

export type SourceNode = SourceSection | SourceDocument;

export interface SourceImage {
  /** The content's digest and its kind (DOCUMENT_IMAGE_NAME). */
  name: string;
  contentType: string;
  body: Buffer;
}

export interface Handbook {
  nodes: SourceNode[];
  images: Map<string, SourceImage>;
}

/** The handbook cannot be imported; the message names the file and what is wrong with it. */
export class HandbookError extends Error {}

const INDEX = 'index.md';

const IMAGE_KINDS: { ext: string[]; name: string; type: string; is: (b: Buffer) => boolean }[] = [
  { ext: ['.png'], name: 'png', type: 'image/png', is: (b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) },
  { ext: ['.jpg', '.jpeg'], name: 'jpg', type: 'image/jpeg', is: (b) => b.length > 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff },
  { ext: ['.gif'], name: 'gif', type: 'image/gif', is: (b) => ['GIF87a', 'GIF89a'].includes(b.subarray(0, 6).toString('latin1')) },
  { ext: ['.webp'], name: 'webp', type: 'image/webp', is: (b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP' },
];

/** A file of the folder, read whole if it is a regular file within `max` bytes and inside the folder. */
async function readInside(dir: string, rel: string, max: number, what: string): Promise<Buffer> {
  const file = path.join(dir, rel);
  let real: string;
  try {
    real = await fs.promises.realpath(file);
  } catch {
    throw new HandbookError(`${what}: ${rel} does not exist`);
  }
  const root = await fs.promises.realpath(dir);
  if (!real.startsWith(root + path.sep)) throw new HandbookError(`${what}: ${rel} lies outside the handbook folder`);
  const stat = await fs.promises.stat(real);
  if (!stat.isFile()) throw new HandbookError(`${what}: ${rel} is not a file`);
  if (stat.size > max) throw new HandbookError(`${what}: ${rel} is larger than ${max} bytes`);
  return fs.promises.readFile(real);
}

const text = async (dir: string, rel: string, what: string) =>
  (await readInside(dir, rel, LIMITS.documentSourceMaxBytes, what)).toString('utf8').replace(/^\uFEFF/, '');

/**
 * A relative reference of a file in `from` (a path of the folder) as a path of the folder, or null for
 * what is not a file of the folder: a URL with a scheme, a console path, an anchor.
 */
function relativeTarget(from: string, href: string, where: string): { file: string; fragment: string } | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('#') || href === '') return null;
  const [withoutFragment = '', fragment = ''] = href.split('#', 2);
  let decoded: string;
  try {
    decoded = decodeURIComponent(withoutFragment.split('?', 1)[0]!);
  } catch {
    throw new HandbookError(`${where}: the link ${href} cannot be read`);
  }
  const file = path.posix.normalize(path.posix.join(path.posix.dirname(from), decoded));
  if (file.startsWith('../') || file === '..' || path.posix.isAbsolute(file)) throw new HandbookError(`${where}: ${href} lies outside the handbook folder`);
  return { file, fragment };
}

const titleOf = (raw: string, where: string) => {
  const title = raw.replace(/\s+/g, ' ').trim();
  // eslint-disable-next-line no-control-regex -- a title holds no control characters
  if (!title || title.length > LIMITS.documentTitleMax || /[\u0000-\u001f\u007f]/.test(title)) {
    throw new HandbookError(`${where}: a title must be 1 to ${LIMITS.documentTitleMax} characters: '${raw}'`);
  }
  return title;
};

/** The inline tokens of a list item (its first text or paragraph) and its nested list, if any. */
function partsOf(item: Tokens.ListItem): { inline: Token[]; list?: Tokens.List } {
  const first = item.tokens.find((t) => t.type === 'text' || t.type === 'paragraph') as Tokens.Text | Tokens.Paragraph | undefined;
  const list = item.tokens.find((t) => t.type === 'list') as Tokens.List | undefined;
  const inline = (first && 'tokens' in first && first.tokens) || [];
  return { inline: inline.filter((t) => !(t.type === 'text' && t.raw.trim() === '')), ...(list ? { list } : {}) };
}

interface Reading {
  dir: string;
  images: Map<string, SourceImage>;
  documents: Map<string, SourceDocument>;
  count: number;
}

/** The menu of index.md: each list item a section or a document, in order. */
async function nodesOf(list: Tokens.List, parents: string[], reading: Reading): Promise<SourceNode[]> {
  if (parents.length >= LIMITS.documentDepthMax) throw new HandbookError(`${INDEX}: sections nest deeper than ${LIMITS.documentDepthMax} levels`);
  const nodes: SourceNode[] = [];
  for (const item of list.items) {
    if (++reading.count > LIMITS.documentNodesMax) throw new HandbookError(`${INDEX}: the menu has more than ${LIMITS.documentNodesMax} entries`);
    const { inline, list: nested } = partsOf(item);
    const link = inline.length === 1 && inline[0]!.type === 'link' ? (inline[0] as Tokens.Link) : undefined;
    if (link) {
      if (nested) throw new HandbookError(`${INDEX}: the document ${link.href} holds a list; only sections hold entries`);
      nodes.push(await documentOf(link, reading));
    } else if (inline.length > 0 && inline.every((t) => t.type === 'text' || t.type === 'escape')) {
      const title = titleOf(inline.map((t) => t.raw).join(''), INDEX);
      if (!nested) throw new HandbookError(`${INDEX}: the section '${title}' holds no entries`);
      const chain = [...parents, title];
      nodes.push({ type: DOCUMENT_TYPE.section, key: `section:${chain.join('/')}`, title, children: await nodesOf(nested, chain, reading) });
    } else {
      throw new HandbookError(`${INDEX}: '${item.text.trim()}' is neither a section (plain text) nor a document (one link to a .md file)`);
    }
  }
  return nodes;
}

/** One document of the menu, read and lexed; its images stored aside. */
async function documentOf(link: Tokens.Link, reading: Reading): Promise<SourceDocument> {
  const title = titleOf(link.text, INDEX);
  const target = relativeTarget(INDEX, link.href, INDEX);
  if (!target || !target.file.endsWith('.md') || target.file === INDEX) throw new HandbookError(`${INDEX}: '${title}' must link to a .md file of the folder, not ${link.href}`);
  const key = `doc:${target.file}`;
  if (reading.documents.has(key)) throw new HandbookError(`${INDEX}: ${target.file} is listed twice`);
  const tokens: Token[] = new Lexer({ gfm: true }).lex(await text(reading.dir, target.file, INDEX));
  // The page shows the title from the menu; a file starting with it as its heading reads well elsewhere.
  const first = tokens.find((t) => t.type !== 'space');
  if (first?.type === 'heading' && (first as Tokens.Heading).depth === 1) tokens.splice(tokens.indexOf(first), 1);
  const doc: SourceDocument = { type: DOCUMENT_TYPE.document, key, title, tokens, links: [] };
  reading.documents.set(key, doc);
  const pending: Promise<void>[] = [];
  walkTokens(tokens, (token) => {
    if (token.type === 'image') pending.push(imageOf(token as Tokens.Image, target.file, reading));
    if (token.type === 'link') {
      const to = relativeTarget(target.file, (token as Tokens.Link).href, target.file);
      if (!to) return;
      if (!to.file.endsWith('.md')) throw new HandbookError(`${target.file}: links to ${to.file}, which is not a document (images are written ![text](file))`);
      doc.links.push({ token: token as Tokens.Link, key: `doc:${to.file}` });
    }
  });
  await Promise.all(pending);
  return doc;
}

/** An image of a document: read, checked by content, named by its digest; its token points at the server. */
async function imageOf(token: Tokens.Image, from: string, reading: Reading): Promise<void> {
  const target = relativeTarget(from, token.href, from);
  if (!target) throw new HandbookError(`${from}: the image ${token.href} must be a file of the handbook folder (the console shows no images from elsewhere)`);
  const ext = path.posix.extname(target.file).toLowerCase();
  const kind = IMAGE_KINDS.find((k) => k.ext.includes(ext));
  if (!kind) throw new HandbookError(`${from}: ${target.file} is not a png, jpg, gif or webp image`);
  const body = await readInside(reading.dir, target.file, LIMITS.documentImageMaxBytes, from);
  if (!kind.is(body)) throw new HandbookError(`${from}: ${target.file} does not hold a ${kind.name} image`);
  const name = `${createHash('sha256').update(body).digest('hex').slice(0, 32)}.${kind.name}`;
  reading.images.set(name, { name, contentType: kind.type, body });
  token.href = imageUrl(name);
}

/** Where the server serves a document's image (GET /document/image). */
export const imageUrl = (name: string) => `${endpointUrl(documentImage)}?name=${name}`;

/** Reads and checks the whole handbook; nothing is written. */
export async function readHandbook(dir: string): Promise<Handbook> {
  const reading: Reading = { dir, images: new Map(), documents: new Map(), count: 0 };
  const lists = new Lexer({ gfm: true }).lex(await text(dir, INDEX, 'the handbook')).filter((t) => t.type === 'list') as Tokens.List[];
  if (lists.length !== 1) throw new HandbookError(`${INDEX}: must hold exactly one list (the menu), found ${lists.length}`);
  const nodes = await nodesOf(lists[0]!, [], reading);
  const keys = new Set<string>();
  const check = (list: SourceNode[]) => {
    for (const node of list) {
      if (keys.has(node.key)) throw new HandbookError(`${INDEX}: two sections '${node.title}' in one place`);
      keys.add(node.key);
      if (node.type === DOCUMENT_TYPE.section) check(node.children);
      else for (const link of node.links) if (!reading.documents.has(link.key)) throw new HandbookError(`${node.key.slice(4)}: links to ${link.key.slice(4)}, which is not in the menu`);
    }
  };
  check(nodes);
  return { nodes, images: reading.images };
}
