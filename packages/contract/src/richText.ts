/**
 * The HTML that messages and announcements may carry: one allow-list, used by the server when it stores
 * the content (sanitize-html) and again by the console when it renders it. Anything not listed is
 * dropped: scripts, styles sheets, frames, forms, event handlers, javascript: and other URL schemes.
 */
export const RICH_TEXT = {
  tags: [
    'p', 'br', 'hr', 'div', 'span', 'blockquote', 'pre', 'code',
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
    'strong', 'b', 'em', 'i', 'u', 's', 'strike', 'del', 'ins', 'sub', 'sup', 'small', 'mark',
    'ul', 'ol', 'li', 'dl', 'dt', 'dd',
    'a', 'img', 'figure', 'figcaption',
    'table', 'caption', 'thead', 'tbody', 'tfoot', 'tr', 'th', 'td', 'colgroup', 'col',
  ],
  /** Elements removed together with everything inside them (the rest of unknown elements keep their text). */
  dropWithContent: ['script', 'style', 'template', 'iframe', 'frame', 'frameset', 'object', 'embed', 'noscript', 'svg', 'math', 'textarea', 'select', 'title', 'head'],
  /** Attributes per tag; '*' applies to every allowed tag. */
  attributes: {
    '*': ['style', 'title'],
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align', 'valign'],
    th: ['colspan', 'rowspan', 'align', 'valign'],
    col: ['span', 'width'],
    ol: ['start'],
  } as Record<string, readonly string[]>,
  /** URL schemes allowed in href; relative URLs are allowed too. */
  linkSchemes: ['http', 'https', 'mailto', 'tel'],
  /** URL schemes allowed in img src (data: for images pasted into an editor). */
  imageSchemes: ['http', 'https', 'data'],
  /** Inline style properties kept; each value must match its pattern (no url(), no expression()). */
  styles: {
    color: /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i,
    'background-color': /^(#[0-9a-f]{3,8}|rgba?\([\d\s.,%]+\)|[a-z]+)$/i,
    'text-align': /^(left|right|center|justify|start|end)$/i,
    'font-size': /^\d+(\.\d+)?(px|em|rem|%|pt)$/i,
    'font-weight': /^(normal|bold|bolder|lighter|\d{3})$/i,
    'font-style': /^(normal|italic|oblique)$/i,
    'text-decoration': /^(none|underline|line-through|overline)( (none|underline|line-through|overline))*$/i,
    'text-indent': /^\d+(\.\d+)?(px|em|rem|%|pt)$/i,
    'line-height': /^\d+(\.\d+)?(px|em|rem|%)?$/i,
    width: /^\d+(\.\d+)?(px|em|rem|%)?$/i,
    height: /^\d+(\.\d+)?(px|em|rem|%)?$/i,
  } as Record<string, RegExp>,
} as const;

/** True when a URL is relative or uses one of the schemes (control characters and spaces ignored, as browsers ignore them). */
export function isSafeUrl(value: string, schemes: readonly string[]): boolean {
  // eslint-disable-next-line no-control-regex
  const v = value.replace(/[\u0000-\u0020\u007f-\u009f]/g, '');
  const m = /^([a-z][a-z0-9+.-]*):/i.exec(v);
  if (!m) return true;
  return schemes.includes(m[1]!.toLowerCase());
}
