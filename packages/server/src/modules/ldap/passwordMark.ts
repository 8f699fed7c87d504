import { LDAP_TYPE } from '@hublink/contract';
import type { Entry } from 'ldapts';
import type { DirectorySession } from '../../domain/ldap';

/*
 * Where a directory user's password last changed, as a mark the sync keeps per user and compares
 * (issue 33): when it moves, the member's sessions and credentials end, so it signs in again with
 * the new password. The directory's own record, by kind:
 *  - OpenLDAP: pwdChangedTime, which the ppolicy overlay writes on every password change (no policy
 *    needs to be configured, the overlay only). An entry without it (a directory without ppolicy, or
 *    a password set before the overlay was loaded) falls back to the entry's change stamp: entryCSN
 *    (OpenLDAP, finer than a second) or modifyTimestamp (any LDAP server). Then any change of the
 *    entry counts as a password change: the safe side, at the cost of a sign-in too many.
 *  - Active Directory: pwdLastSet (100 ns ticks). An administrator's "must change at next logon"
 *    sets it to 0, which moves it too.
 * A mark of '' says the directory told nothing; a move from or to '' ends nothing.
 *
 * The marks are read beside the users, by a session that adds their attributes to each paged read of
 * users and keeps the marks of the page last read (by DN): whatever reads the users through it
 * (the selection's reads, core/ldapSelection.ts) needs to know nothing of them.
 */

export const PASSWORD_MARK_ATTRIBUTES: Record<number, string[]> = {
  [LDAP_TYPE.openldap]: ['pwdChangedTime', 'entryCSN', 'modifyTimestamp'],
  [LDAP_TYPE.ad]: ['pwdLastSet'],
};

const MARK_MAX = 128;

/** The first value of an attribute as text, whatever case the server spelled its name in ('' when absent). */
function textOf(entry: Entry, name: string): string {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : entry[key];
  const first = Array.isArray(v) ? v[0] : v;
  if (first === undefined) return '';
  return (Buffer.isBuffer(first) ? first.toString('utf8') : String(first)).trim();
}

/** The mark of an entry: the source's letter and its value. */
export function passwordMarkOf(type: number, entry: Entry): string {
  const mark = (source: string, value: string) => (value ? `${source}:${value}`.slice(0, MARK_MAX) : '');
  if (type === LDAP_TYPE.ad) return mark('a', textOf(entry, 'pwdLastSet'));
  return mark('p', textOf(entry, 'pwdChangedTime')) || mark('c', textOf(entry, 'entryCSN')) || mark('m', textOf(entry, 'modifyTimestamp'));
}

/** Whether the password changed between two marks the sync read. */
export const passwordMoved = (before: string, after: string) => before !== '' && after !== '' && before !== after;

/** A session whose paged reads of users also read the password marks; markOf answers for an entry of the page last read. */
export function markingSession(session: DirectorySession, type: number): { session: DirectorySession; markOf(dn: string): string } {
  const extra = PASSWORD_MARK_ATTRIBUTES[type] ?? PASSWORD_MARK_ATTRIBUTES[LDAP_TYPE.openldap]!;
  let marks = new Map<string, string>();
  return {
    session: {
      bind: (dn, password) => session.bind(dn, password),
      search: (base, opts) => session.search(base, opts),
      async *pages(base, opts) {
        // A read of DNs only ('1.1') stays one.
        const attributes = opts.attributes.includes('1.1') ? opts.attributes : [...opts.attributes, ...extra];
        for await (const page of session.pages(base, { ...opts, attributes })) {
          marks = new Map(page.map((e) => [e.dn, passwordMarkOf(type, e)]));
          yield page;
        }
      },
    },
    markOf: (dn) => marks.get(dn) ?? '',
  };
}
