import { Parser } from 'htmlparser2';
import { isSafeUrl, RICH_TEXT } from '@hublink/contract';

const allowedTags = new Set<string>(RICH_TEXT.tags);
const dropTags = new Set<string>(RICH_TEXT.dropWithContent);
const everywhere = RICH_TEXT.attributes['*'] ?? [];

const attrAllowed = (tag: string, name: string) => everywhere.includes(name) || (RICH_TEXT.attributes[tag] ?? []).includes(name);

/**
 * The allowed declarations of a style attribute, parsed by a style object of the page (CSSOM, which
 * the console's Content Security Policy does not restrict).
 */
function allowedStyles(style: string): [string, string][] {
  const scratch = document.createElement('span').style;
  scratch.cssText = style;
  return Array.from({ length: scratch.length }, (_, i) => scratch.item(i))
    .map((prop): [string, string] => [prop, scratch.getPropertyValue(prop).trim()])
    .filter(([prop, value]) => RICH_TEXT.styles[prop]?.test(value));
}

/** An allowed element with its allowed attributes; styles are set through the DOM, never as markup. */
function elementOf(tag: string, attribs: Record<string, string>): HTMLElement {
  const el = document.createElement(tag);
  for (const [raw, value] of Object.entries(attribs)) {
    const name = raw.toLowerCase();
    if (!attrAllowed(tag, name) || name === 'target' || name === 'rel') continue;
    if (name === 'href' && !isSafeUrl(value, RICH_TEXT.linkSchemes)) continue;
    if (name === 'src' && !isSafeUrl(value, RICH_TEXT.imageSchemes)) continue;
    if (name === 'style') {
      for (const [prop, v] of allowedStyles(value)) el.style.setProperty(prop, v);
      continue;
    }
    el.setAttribute(name, value);
  }
  const href = el.getAttribute('href');
  if (tag === 'a' && href && !href.startsWith('#')) {
    el.setAttribute('target', '_blank');
    el.setAttribute('rel', 'noopener noreferrer');
  }
  return el;
}

/** What an open tag became: an element its children go into, a tag whose children go to its parent, or one dropped with them. */
type Frame = 'keep' | 'unwrap' | 'drop';

/**
 * Builds the nodes of rich HTML from what the contract's allow-list permits, and nothing else; the
 * server stored it sanitised already, this is the second line. The HTML is tokenised by htmlparser2,
 * not by the browser: the browser's parsers (DOMParser, template, innerHTML) apply style attributes,
 * which the console's Content Security Policy refuses (style-src-attr 'none') and reports. Every
 * node is made here: allowed elements with allowed attributes, their styles set through the DOM,
 * and text; unknown elements give their content, dropped ones (script, svg, …) give nothing.
 */
export function cleanHtmlNodes(html: string): DocumentFragment {
  const root = document.createDocumentFragment();
  // One frame per open tag; the elements kept so far, innermost last; how many dropped tags are open.
  const frames: Frame[] = [];
  const parents: Node[] = [root];
  let dropping = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (dropping > 0 || dropTags.has(name)) {
          frames.push('drop');
          dropping++;
        } else if (allowedTags.has(name)) {
          const el = elementOf(name, attribs);
          parents.at(-1)!.appendChild(el);
          parents.push(el);
          frames.push('keep');
        } else frames.push('unwrap');
      },
      onclosetag() {
        const frame = frames.pop();
        if (frame === 'keep') parents.pop();
        else if (frame === 'drop') dropping--;
      },
      ontext(text) {
        if (dropping === 0) parents.at(-1)!.appendChild(document.createTextNode(text));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

/** The cleaned HTML as a string. */
export function cleanHtml(html: string): string {
  const box = document.createElement('div');
  box.append(cleanHtmlNodes(html));
  return box.innerHTML;
}

/** Puts cleaned HTML into an element of the page. */
export function placeCleanHtml(box: HTMLElement, html: string): void {
  box.replaceChildren(cleanHtmlNodes(html));
}
