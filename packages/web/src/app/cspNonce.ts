/**
 * The nonce of the page's Content Security Policy, which the server writes into each copy of the page
 * as <meta property="csp-nonce" nonce="…"> (docs/decisions.md, "Security headers"): a style element
 * applies only when it carries it. Undefined when the page was served without one (Vite's dev server).
 */
export function cspNonce(): string | undefined {
  // The nonce attribute reads empty once the page has loaded; the property keeps it.
  return document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce || undefined;
}

/**
 * Gives the nonce to the style elements added to <head> without one. antd's own styles carry it
 * (ConfigProvider csp), but rc-component adds a few with no way to pass it (the scroll lock of modals
 * and drawers, the scrollbar measure), which the policy would refuse. Only the console's own scripts
 * reach this: markup cannot add elements through it, so injected styles stay refused.
 */
export function nonceHeadStyles(nonce: string): void {
  const head = document.head;
  const withNonce = <T extends Node>(node: T): T => {
    if (node instanceof HTMLStyleElement && !node.nonce) node.nonce = nonce;
    return node;
  };
  const append = head.appendChild.bind(head);
  const insertBefore = head.insertBefore.bind(head);
  head.appendChild = <T extends Node>(node: T): T => append(withNonce(node));
  head.insertBefore = <T extends Node>(node: T, child: Node | null): T => insertBefore(withNonce(node), child);
}
