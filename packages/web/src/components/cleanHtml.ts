import { isSafeUrl, RICH_TEXT } from '@hublink/contract';

const HTML_NS = 'http://www.w3.org/1999/xhtml';
const allowedTags = new Set<string>(RICH_TEXT.tags);
const dropTags = new Set<string>(RICH_TEXT.dropWithContent);
const everywhere = RICH_TEXT.attributes['*'] ?? [];

const attrAllowed = (tag: string, name: string) => everywhere.includes(name) || (RICH_TEXT.attributes[tag] ?? []).includes(name);

function cleanStyle(el: HTMLElement) {
  const kept: string[] = [];
  for (let i = 0; i < el.style.length; i++) {
    const prop = el.style.item(i);
    const value = el.style.getPropertyValue(prop).trim();
    const pattern = RICH_TEXT.styles[prop];
    if (pattern && pattern.test(value)) kept.push(`${prop}: ${value}`);
  }
  if (kept.length > 0) el.setAttribute('style', kept.join('; '));
  else el.removeAttribute('style');
}

function cleanElement(el: Element) {
  const tag = el.localName;
  for (const attr of Array.from(el.attributes)) {
    const name = attr.name.toLowerCase();
    const keep =
      attrAllowed(tag, name) &&
      (name !== 'href' || isSafeUrl(attr.value, RICH_TEXT.linkSchemes)) &&
      (name !== 'src' || isSafeUrl(attr.value, RICH_TEXT.imageSchemes));
    if (!keep) el.removeAttribute(attr.name);
  }
  if (el.hasAttribute('style')) cleanStyle(el as HTMLElement);
  if (tag === 'a') {
    const href = el.getAttribute('href');
    if (href && !href.startsWith('#')) {
      el.setAttribute('target', '_blank');
      el.setAttribute('rel', 'noopener noreferrer');
    } else {
      el.removeAttribute('target');
    }
  }
}

function cleanChildren(node: ParentNode) {
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === Node.TEXT_NODE) continue;
    if (child.nodeType !== Node.ELEMENT_NODE) {
      child.remove(); // comments, processing instructions
      continue;
    }
    const el = child as Element;
    if (el.namespaceURI !== HTML_NS || dropTags.has(el.localName)) {
      el.remove();
      continue;
    }
    cleanChildren(el);
    if (allowedTags.has(el.localName)) cleanElement(el);
    else el.replaceWith(...Array.from(el.childNodes));
  }
}

/**
 * Parses HTML inertly (DOMParser runs no script and loads nothing) and keeps only what the contract's
 * allow-list permits; the server stored it sanitised already, this is the second line.
 * Answers the cleaned nodes in a detached body element.
 */
export function cleanHtmlNodes(html: string): HTMLElement {
  const doc = new DOMParser().parseFromString(`<!doctype html><html><body>${html}</body></html>`, 'text/html');
  cleanChildren(doc.body);
  return doc.body;
}

/** The cleaned HTML as a string. */
export const cleanHtml = (html: string): string => cleanHtmlNodes(html).innerHTML;
