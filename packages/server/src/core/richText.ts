import sanitizeHtml from 'sanitize-html';
import { RICH_TEXT, isSafeUrl } from '@hublink/contract';

const options: sanitizeHtml.IOptions = {
  allowedTags: [...RICH_TEXT.tags],
  allowedAttributes: Object.fromEntries(Object.entries(RICH_TEXT.attributes).map(([tag, attrs]) => [tag, [...attrs]])),
  allowedStyles: { '*': Object.fromEntries(Object.entries(RICH_TEXT.styles).map(([prop, re]) => [prop, [re]])) },
  allowedSchemes: [...RICH_TEXT.linkSchemes],
  allowedSchemesByTag: { img: [...RICH_TEXT.imageSchemes] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  nonTextTags: [...RICH_TEXT.dropWithContent, 'option'],
  transformTags: {
    // Links leave the console in a new tab without handing it the opener.
    a: (tagName, attribs) => {
      const href = attribs.href;
      const out: sanitizeHtml.Attributes = {};
      if (href !== undefined && isSafeUrl(href, RICH_TEXT.linkSchemes)) out.href = href;
      if (attribs.title) out.title = attribs.title;
      if (attribs.style) out.style = attribs.style;
      if (out.href && !out.href.startsWith('#')) {
        out.target = '_blank';
        out.rel = 'noopener noreferrer';
      }
      return { tagName, attribs: out };
    },
  },
};

/**
 * The HTML of a message or announcement as it is stored: only the tags, attributes, URL schemes and
 * inline styles of the contract's allow-list survive (RICH_TEXT); scripts, event handlers and
 * javascript: URLs do not.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, options).trim();
}

/** Text as HTML shows it literally: the five characters HTML gives a meaning escaped. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
