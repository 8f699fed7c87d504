import { describe, expect, it } from 'vitest';
import { escapeFilterValue, LDAP_FILTER_PROBLEMS as P, ldapFilterProblem } from './ldapFilter';
import { memberNameOf } from './ldapNames';

describe('the member-name rule (issue 33)', () => {
  it('turns any directory name into a member name, or into nothing', () => {
    const cases: [string, boolean, string][] = [
      ['john-doe', false, 'john_doe'],
      ['John.Doe@Example.com', false, 'John.Doe'],
      ['John.Doe@Example.com', true, 'john.doe'],
      ['CORP\\jdoe', true, 'corp_jdoe'],
      ['José Müller', false, 'Jose_Muller'],
      ['a -- b', false, 'a_b'],
      ['_.x_.', false, 'x'],
      ['averyveryverylongname', false, 'averyveryverylongn'],
      ['abcdefghijklmnopq-rst', false, 'abcdefghijklmnopq'],
      ['张三', false, ''],
      ['---', false, ''],
      ['@example.com', false, ''],
    ];
    for (const [name, lower, member] of cases) expect([name, lower, memberNameOf(name, lower)]).toEqual([name, lower, member]);
  });
});

describe('LDAP filter syntax (RFC 4515)', () => {
  it('takes filters and says what is wrong with the others', () => {
    for (const ok of ['(uid=*)', '(&(objectClass=user)(!(department=Sales)))', '(|(cn=a*b*c)(sn~=x)(uidNumber>=100))', '(memberOf:1.2.840.113556.1.4.1941:=cn=x,dc=y)', '(cn:dn:caseExactMatch:=Fred)', '(:dn:2.4.8.1:=x)', '(cn=a\\28b\\29)', '(cn;lang-en=x)']) {
      expect([ok, ldapFilterProblem(ok)]).toEqual([ok, null]);
    }
    const bad: [string, string][] = [
      ['uid=x', P.parens],
      ['(uid=x', P.unbalanced],
      ['(uid=x))', P.unbalanced],
      ['(uid=x)(cn=y)', P.parens],
      ['()', P.empty],
      ['(&)', P.listEmpty],
      ['(&uid=x)', P.listEmpty],
      ['(uid)', P.operator],
      ['(=x)', P.attribute],
      ['(1uid=x)', P.attribute],
      ['(cn=a(b)', P.escape],
      ['(cn=a\\zz)', P.escape],
      ['(:=x)', P.extensible],
    ];
    for (const [text, problem] of bad) expect([text, ldapFilterProblem(text)]).toEqual([text, problem]);
    expect(escapeFilterValue('a*(b)\\c')).toBe('a\\2a\\28b\\29\\5cc');
  });
});
