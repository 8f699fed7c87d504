import { isSafeUrl, RICH_TEXT } from '@hublink/contract';
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { Parser } from 'htmlparser2';

/**
 * Where a style attribute's text waits until the allowed declarations are set through the DOM. The
 * browser never sees a style attribute in markup: applying one is what the console's Content Security
 * Policy refuses (style-src-attr 'none') and reports, in any of its parsers (DOMParser included).
 */
const STYLE_CARRIER = 'data-hl-style';

const everywhere = RICH_TEXT.attributes['*'] ?? [];
const attrAllowed = (tag: string, name: string) => everywhere.includes(name) || (RICH_TEXT.attributes[tag] ?? []).includes(name);
const allAttributes = [...new Set(Object.values(RICH_TEXT.attributes).flat())].filter((name) => name !== 'style');

/** DOMPurify set up from the contract's rich-text rules (the server applies the same rules with sanitize-html). */
const SETTINGS: Config & { RETURN_DOM_FRAGMENT: true } = {
  ALLOWED_TAGS: [...RICH_TEXT.tags],
  ALLOWED_ATTR: allAttributes,
  FORBID_CONTENTS: [...RICH_TEXT.dropWithContent],
  ALLOW_DATA_ATTR: false,
  RETURN_DOM_FRAGMENT: true,
};

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

/** Our own DOMPurify instance (the shared default stays without hooks): per-tag attributes, URL schemes, styles, links. */
function createPurifier(): Purifier {
  const purifier = DOMPurify(window);
  const styles = new WeakMap<Element, string>();
  purifier.addHook('uponSanitizeAttribute', (node, data) => {
    const tag = node.nodeName.toLowerCase();
    const name = data.attrName;
    if (name === STYLE_CARRIER) {
      styles.set(node, data.attrValue);
      data.keepAttr = false;
    } else if (!attrAllowed(tag, name) || name === 'target' || name === 'rel') data.keepAttr = false;
    else if (name === 'href' && !isSafeUrl(data.attrValue, RICH_TEXT.linkSchemes)) data.keepAttr = false;
    else if (name === 'src' && !isSafeUrl(data.attrValue, RICH_TEXT.imageSchemes)) data.keepAttr = false;
  });
  purifier.addHook('afterSanitizeAttributes', (node) => {
    const style = styles.get(node);
    if (style !== undefined && node instanceof HTMLElement) for (const [prop, value] of allowedStyles(style)) node.style.setProperty(prop, value);
    const href = node.getAttribute('href');
    if (node.nodeName === 'A' && href && !href.startsWith('#')) {
      node.setAttribute('target', '_blank');
      node.setAttribute('rel', 'noopener noreferrer');
    }
  });
  return purifier;
}

let purifier: Purifier | undefined;

/**
 * The markup as inert nodes, tokenised by htmlparser2 rather than by the browser (whose parsers apply
 * style attributes): elements and text of a document without a browsing context, so nothing loads or
 * runs, and each style attribute moved to STYLE_CARRIER. Nothing is filtered here; DOMPurify does that.
 */
function inertNodes(html: string): DocumentFragment {
  const inert = document.implementation.createHTMLDocument('');
  const root = inert.createDocumentFragment();
  // The elements open so far, innermost last; per open tag, whether it became an element.
  const parents: Node[] = [root];
  const opened: boolean[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        const el = inertElement(inert, name, attribs);
        if (el) {
          parents.at(-1)!.appendChild(el);
          parents.push(el);
        }
        opened.push(el !== null);
      },
      onclosetag() {
        if (opened.pop()) parents.pop();
      },
      ontext(text) {
        parents.at(-1)!.appendChild(inert.createTextNode(text));
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return root;
}

/** An element with its attributes, or null for a name the DOM refuses (its content then goes to the parent). */
function inertElement(doc: Document, name: string, attribs: Record<string, string>): Element | null {
  let el: Element;
  try {
    el = doc.createElement(name);
  } catch {
    return null;
  }
  for (const [attr, value] of Object.entries(attribs)) {
    try {
      el.setAttribute(attr === 'style' ? STYLE_CARRIER : attr, value);
    } catch {
      // Not a valid attribute name: it cannot be allowed anyway.
    }
  }
  return el;
}

/**
 * The nodes of rich HTML that the contract's allow-list permits, and nothing else; the server stored
 * it sanitised already, this is the second line. DOMPurify sanitises the inert nodes; the allowed
 * inline styles are set through the DOM; links to other pages open in a new tab without the opener.
 */
export function cleanHtmlNodes(html: string): DocumentFragment {
  purifier ??= createPurifier();
  return purifier.sanitize(inertNodes(html), SETTINGS);
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
