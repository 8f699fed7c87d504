/*
 * The syntax of an LDAP search filter (RFC 4515), checked before a custom filter of the LDAP form is
 * sent anywhere: the console shows the reason under the field, the server refuses the same text with
 * the same reason. The directory still judges what the filter means (its attributes, its matching
 * rules) when the configuration is checked.
 */

/** Why a filter is not one, in the console's words. */
export const LDAP_FILTER_PROBLEMS = {
  parens: '必须以“(”开头，并以对应的“)”结尾',
  unbalanced: '括号不匹配',
  empty: '括号中缺少条件',
  listEmpty: '“&”“|”之后至少需要一个用括号括起的条件',
  attribute: '属性名不正确（字母开头，只能包含字母、数字和连字符）',
  operator: '缺少比较符（=、~=、>=、<= 或 :=）',
  escape: '值中的 ( ) \\ 须写成 \\28 \\29 \\5c',
  extensible: '扩展匹配格式不正确，例如 (memberOf:1.2.840.113556.1.4.1941:=cn=staff,dc=example,dc=com)',
} as const;

type Problem = keyof typeof LDAP_FILTER_PROBLEMS;

const ATTRIBUTE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)(?:;[A-Za-z0-9-]+)*$/;
const RULE = /^(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)$/;

class FilterSyntax extends Error {
  constructor(readonly problem: Problem) {
    super(problem);
  }
}

/** A value: no bare '(' ')' or NUL, and '\' only before two hex digits; '*' is a wildcard where allowed. */
function checkValue(v: string) {
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '(' || c === ')' || c === '\u0000') throw new FilterSyntax('escape');
    if (c === '\\') {
      if (!/^[0-9A-Fa-f]{2}$/.test(v.slice(i + 1, i + 3))) throw new FilterSyntax('escape');
      i += 2;
    }
  }
}

/** An item between its parentheses: attr=value, attr~=, >=, <=, presence, substrings, or an extensible match. */
function checkItem(item: string) {
  const ext = item.indexOf(':=');
  const eq = item.indexOf('=');
  if (eq < 0) throw new FilterSyntax('operator');
  if (ext >= 0 && ext < eq) {
    // [attr][:dn][:rule]:=value
    const parts = item.slice(0, ext).split(':');
    const [attr, ...rest] = parts;
    if (attr !== '' && !ATTRIBUTE.test(attr!)) throw new FilterSyntax('attribute');
    const dn = rest[0]?.toLowerCase() === 'dn';
    const rules = dn ? rest.slice(1) : rest;
    if (rules.length > 1 || (rules.length === 1 && !RULE.test(rules[0]!)) || (attr === '' && rules.length === 0)) throw new FilterSyntax('extensible');
    checkValue(item.slice(ext + 2));
    return;
  }
  let name = item.slice(0, eq);
  if (name.endsWith('~') || name.endsWith('>') || name.endsWith('<')) name = name.slice(0, -1);
  if (name === '') throw new FilterSyntax('attribute');
  if (!ATTRIBUTE.test(name)) throw new FilterSyntax(/[A-Za-z0-9-]$/.test(name) ? 'attribute' : 'operator');
  checkValue(item.slice(eq + 1));
}

/** Reads one '(' … ')' filter at `at`; answers the index after it. */
function readFilter(text: string, at: number, depth: number): number {
  if (text[at] !== '(') throw new FilterSyntax(depth === 0 ? 'parens' : 'listEmpty');
  const c = text[at + 1];
  if (c === undefined) throw new FilterSyntax('unbalanced');
  if (c === ')') throw new FilterSyntax('empty');
  if (c === '&' || c === '|' || c === '!') {
    let i = at + 2;
    let count = 0;
    while (text[i] === '(') {
      i = readFilter(text, i, depth + 1);
      count++;
    }
    if (text[i] === undefined) throw new FilterSyntax('unbalanced');
    if (text[i] !== ')') throw new FilterSyntax(count === 0 ? 'listEmpty' : 'unbalanced');
    if (count === 0) throw new FilterSyntax('listEmpty');
    if (c === '!' && count !== 1) throw new FilterSyntax('unbalanced');
    return i + 1;
  }
  // An item ends at the first ')' (a ')' inside a value must be escaped).
  const end = text.indexOf(')', at + 1);
  if (end < 0) throw new FilterSyntax('unbalanced');
  const item = text.slice(at + 1, end);
  if (item.includes('(')) throw new FilterSyntax(item.indexOf('(') < item.indexOf('=') || !item.includes('=') ? 'unbalanced' : 'escape');
  checkItem(item);
  return end + 1;
}

/** The reason a text is no LDAP filter, or null when it is one (a whole filter in parentheses). */
export function ldapFilterProblem(text: string): string | null {
  try {
    if (!text.startsWith('(')) throw new FilterSyntax('parens');
    const end = readFilter(text, 0, 0);
    if (end !== text.length) throw new FilterSyntax(text.slice(end).trim() === ')' ? 'unbalanced' : 'parens');
    return null;
  } catch (err) {
    if (err instanceof FilterSyntax) return LDAP_FILTER_PROBLEMS[err.problem];
    throw err;
  }
}

/** A value inside a filter, escaped (RFC 4515): '*', '(', ')', '\' and NUL as \HH. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters to escape
export const escapeFilterValue = (v: string) => v.replace(/[*()\\\u0000]/g, (c) => `\\${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
