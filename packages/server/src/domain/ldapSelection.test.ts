import { fmt, LDAP_TYPE, M } from '@hublink/contract';
import { describe, expect, it } from 'vitest';
import { DirectoryError, type DirectorySession } from './ldap';
import { checkSelection, type DirectoryConfig } from './ldapSelection';

/*
 * How checkSelection words a directory's refusal of the selection (issue 33). slapd takes any filter
 * that parses (an unknown attribute or matching rule is Undefined, not an error), so the refusal that
 * Active Directory answers (for instance to an extensible match it does not know) cannot be made by the
 * test directory: a session answering as the LDAP client does for such a refusal stands in for it.
 * Everything else of the selection is tested against slapd (modules/ldap/selection.test.ts).
 */

const serverRefusal = new DirectoryError('server', fmt(M.ldapErrServer, { message: 'inappropriateMatching (18)' }), 'InappropriateMatchingError: code 18');

/** Answers a base lookup with a group entry, and the selection's search (a subtree one) with `failure`. */
const sessionAnswering = (failure: Error | null): DirectorySession => ({
  bind: () => Promise.resolve(),
  search: (base, opts) =>
    opts.scope === 'base' ? Promise.resolve([{ dn: base, objectClass: ['top', 'group'], member: [] }]) : failure ? Promise.reject(failure) : Promise.resolve([]),
  // eslint-disable-next-line require-yield -- no pages: checkSelection makes one search only.
  pages: async function* () {
    return;
  },
});

const config = (over: Partial<DirectoryConfig> = {}): DirectoryConfig => ({
  base_dn: 'dc=corp,dc=example',
  type: LDAP_TYPE.ad,
  name_attr: '',
  name_lower: 0,
  note_attr: 'description',
  phone_attr: '',
  email_attr: '',
  user_group: '',
  user_filter: '',
  ...over,
});

describe('checkSelection: what the directory refuses', () => {
  it('words a refused custom filter as the filter’s fault, with the server’s words', async () => {
    await expect(checkSelection(sessionAnswering(serverRefusal), config({ user_filter: '(department:1.2.3.4:=Sales)' }))).rejects.toMatchObject({
      kind: 'filter',
      message: fmt(M.ldapFilterRefused, { message: 'inappropriateMatching (18)' }),
    });
  });

  it('words a refused Active Directory group as the filter’s fault too (its in-chain match is a filter)', async () => {
    await expect(checkSelection(sessionAnswering(serverRefusal), config({ user_group: 'CN=VPN,OU=Groups,DC=corp,DC=example' }))).rejects.toMatchObject({
      kind: 'filter',
      message: fmt(M.ldapFilterRefused, { message: 'inappropriateMatching (18)' }),
    });
    // In another directory the group is walked, not searched by a filter: a refusal is the server's.
    await expect(checkSelection(sessionAnswering(serverRefusal), config({ type: LDAP_TYPE.openldap, user_group: 'cn=vpn,dc=corp,dc=example' }))).rejects.toBe(serverRefusal);
  });

  it('leaves a refusal without a chosen filter as the server’s error, and a size limit as a pass', async () => {
    await expect(checkSelection(sessionAnswering(serverRefusal), config())).rejects.toBe(serverRefusal);
    await expect(checkSelection(sessionAnswering(new DirectoryError('size_limit', 'limit', '')), config({ user_filter: '(cn=*)' }))).resolves.toBeUndefined();
    await expect(checkSelection(sessionAnswering(null), config({ user_filter: '(cn=*)' }))).resolves.toBeUndefined();
  });
});
