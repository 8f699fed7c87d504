import { ldapDefaultAttributes, LIMITS, M, type LdapConfigInput, type LdapPreviewUser } from '@hublink/contract';
import type { DirectorySession } from '../../domain/ldap';
import { selectedUsers } from '../../domain/ldapSelection';
import type { DirectoryUser } from '../../domain/ldapUsers';
import { memberKey } from '../../domain/members';
import type { ConfigRow } from './state';

/*
 * User selection and attribute mapping of the configuration (issue 33): the columns a save writes,
 * the fields /ldap/config shows, and the preview of what the form's values select.
 */

type SelectionInput = Pick<LdapConfigInput, 'user_group' | 'user_filter' | 'name_attr' | 'name_lower' | 'note_attr' | 'phone_attr' | 'email_attr'>;

/** The columns of ldap_config a save writes. */
export const selectionColumns = (input: SelectionInput) => ({
  user_group: input.user_group,
  user_filter: input.user_filter,
  name_attr: input.name_attr,
  name_lower: input.name_lower,
  note_attr: input.note_attr,
  phone_attr: input.phone_attr,
  email_attr: input.email_attr,
});

/** The fields /ldap/config shows: the name attribute in effect (the type's default when none was chosen). */
export const selectionOf = (row: ConfigRow): SelectionInput => ({
  ...selectionColumns(row),
  name_attr: row.name_attr || ldapDefaultAttributes(row.type).name_attr,
});

/** Why a user's member name cannot be imported: it maps to nothing, or `count` users map to it. */
export const nameIssue = (memberName: string, count: number) => (memberName === '' ? M.ldapNameEmpty : count > 1 ? M.ldapNameCollision : '');

const previewItem = (u: DirectoryUser, issue: string): LdapPreviewUser => ({
  username: u.username,
  member_name: u.member_name,
  description: u.description,
  phone: u.phone,
  email: u.email,
  disable: u.disabled ? 1 : 0,
  issue,
});

/**
 * Runs the selection and the mapping over the whole directory (page by page) in a bound session:
 * the count, the first users, and the users whose names map to nothing or collide (the first of a
 * name is listed once a second one comes).
 */
export async function previewOf(session: DirectorySession, input: LdapConfigInput) {
  const shown = LIMITS.ldapPreviewShown;
  const first: DirectoryUser[] = [];
  const names = new Map<string, { n: number; first: DirectoryUser }>();
  const troubled: DirectoryUser[] = [];
  let count = 0;
  for await (const page of selectedUsers(session, input)) {
    for (const u of page) {
      count++;
      if (first.length < shown) first.push(u);
      const key = memberKey(u.member_name);
      const seen = names.get(key);
      if (!seen) names.set(key, { n: 1, first: u });
      else {
        seen.n++;
        if (key !== '' && seen.n === 2 && troubled.length < shown) troubled.push(seen.first);
      }
      if ((key === '' || seen) && troubled.length < shown) troubled.push(u);
    }
  }
  const issueOf = (u: DirectoryUser) => nameIssue(u.member_name, names.get(memberKey(u.member_name))?.n ?? 0);
  let issueCount = 0;
  for (const [key, { n }] of names) if (key === '' || n > 1) issueCount += n;
  return {
    count,
    users: first.map((u) => previewItem(u, issueOf(u))),
    issue_count: issueCount,
    issues: troubled.map((u) => previewItem(u, issueOf(u))),
  };
}
