import { LIMITS } from './limits';

/*
 * The rule that turns a directory name into a member name (issue 33). A member name is 1 to
 * LIMITS.memberNameMax letters, digits, '_' or '.' (MEMBER_NAME_PATTERN); a directory name can be
 * anything (john-doe, john.doe@example.com, José, 张三). The rule, in order:
 *  1. an e-mail address or a user principal name keeps what comes before its first '@';
 *  2. accents go (José → Jose): the name is decomposed (NFKD) and its combining marks dropped;
 *  3. lower-cased when the configuration asks for it (name_lower = 1);
 *  4. each run of other characters becomes one '_' (john-doe → john_doe, a b → a_b);
 *  5. '_' and '.' at either end go;
 *  6. cut to LIMITS.memberNameMax characters, then step 5 again.
 * Nothing left (张三, ---) is a name that maps to nothing; two users whose names map to the same member
 * name (case aside) collide. Neither is imported, and both are shown as such: never dropped or merged.
 */

const AT = '@';
const COMBINING = /\p{M}+/gu;
const OTHER = /[^A-Za-z0-9_.]+/g;
const ENDS = /^[_.]+|[_.]+$/g;

export function memberNameOf(directoryName: string, lower: boolean): string {
  const at = directoryName.indexOf(AT);
  let name = (at >= 0 ? directoryName.slice(0, at) : directoryName).normalize('NFKD').replace(COMBINING, '');
  if (lower) name = name.toLowerCase();
  name = name.replace(OTHER, '_').replace(ENDS, '');
  return name.slice(0, LIMITS.memberNameMax).replace(ENDS, '');
}
