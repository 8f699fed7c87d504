import type { Plugin } from 'vite';

/** The icon component of @ant-design/icons (both builds, and its light variant). */
const ICON_MODULE = /@ant-design[\\/]icons[\\/](es|lib)[\\/]components[\\/]AntdIcon(Light)?\.js$/;
const NAMED = '"aria-label": icon.name';

/**
 * Every antd icon names itself to screen readers with its English file name ('search', 'user',
 * 'menu-fold'), which a Chinese console then reads out beside its own text. Icons here are
 * decorative: the control around an icon carries the name (an icon-only button has its aria-label),
 * so the icon is hidden from assistive technology. Fails the build if the library changes shape,
 * so the fix cannot silently go away.
 */
export function decorativeIcons(): Plugin {
  return {
    name: 'hublink:decorative-icons',
    transform(code, id) {
      if (!ICON_MODULE.test(id)) return null;
      if (!code.includes(NAMED) || !code.includes('restProps')) throw new Error(`decorativeIcons: ${id} no longer names its icons with ${NAMED}`);
      // An icon given its own name (aria-label on the icon) keeps it.
      const hidden = '"aria-hidden": restProps["aria-label"] || restProps["aria-labelledby"] ? undefined : "true"';
      return { code: code.replace(NAMED, hidden), map: null };
    },
  };
}
