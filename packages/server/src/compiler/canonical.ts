/**
 * JSON.stringify's text for the compiler's output (plain objects, arrays, strings, numbers, booleans,
 * null), with the text of every object and array remembered by identity. The compiler's results are
 * never changed once made, and a recompile with a memo hands back the same objects for what did not
 * change, so a center's configuration of a thousand clients is written out again from the clients'
 * remembered texts rather than from scratch.
 */
const texts = new WeakMap<object, string>();
/** Quoted strings: a center's thousand client files come back as the same strings. Bounded. */
const quoted = new Map<string, string>();
const QUOTED_MAX = 200_000;

function quote(s: string): string {
  let text = quoted.get(s);
  if (text === undefined) {
    if (quoted.size >= QUOTED_MAX) quoted.clear();
    quoted.set(s, (text = JSON.stringify(s)));
  }
  return text;
}

export function canonicalJson(value: unknown): string {
  if (typeof value === 'string') return quote(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const known = texts.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map(canonicalJson).join(',')}]`;
  } else {
    const parts: string[] = [];
    for (const [k, v] of Object.entries(value)) if (v !== undefined) parts.push(`${quote(k)}:${canonicalJson(v)}`);
    text = `{${parts.join(',')}}`;
  }
  texts.set(value, text);
  return text;
}
