const DEL = 0x7f;
const FIRST_PRINTABLE = 0x20;
const isControl = (ch: string) => ch.charCodeAt(0) < FIRST_PRINTABLE || ch.charCodeAt(0) === DEL;

/**
 * Where to go after signing in: the `redirect` query value when it is a path of this site
 * (starts with '/', not '//' or '/\', which browsers treat as another host), else '/'.
 */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  // Control characters (tabs, newlines) are stripped by URL parsers and could turn '/\t/x' into '//x'.
  if ([...value].some(isControl)) return '/';
  return value;
}
