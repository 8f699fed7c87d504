import { escapeFilterValue, fmt, LDAP_TYPE, LIMITS, M } from '@hublink/contract';
import type { Entry } from 'ldapts';
import { DirectoryError, type DirectorySession } from './ldap';
import { directoryReader, type DirectoryKind, type DirectoryMapping, type DirectoryUser } from './ldapUsers';

/*
 * Which users of a directory are read (issue 33): every user under base_dn, or only the members of a
 * group (nested groups included), or only those matching a custom filter, or both.
 *  - Active Directory (type 2) resolves nested groups itself: the search asks for
 *    memberOf:1.2.840.113556.1.4.1941:=<group> (LDAP_MATCHING_RULE_IN_CHAIN).
 *  - Any other directory (OpenLDAP has no such rule, and memberOf needs an overlay many servers lack)
 *    is walked: the group's member and uniqueMember values, and those of every group among them, level
 *    by level; a DN seen once is not followed again (cycles end), and the walk is bounded in depth
 *    (LIMITS.ldapGroupDepthMax) and in entries looked up (LIMITS.ldapGroupLookupsMax). To know which
 *    members are users without looking each one up, the users' DNs are read first (one paged search
 *    of DNs only); only members that are not users are looked up, to find the nested groups.
 */

export interface DirectorySelection {
  /** A group's DN ('' for none). */
  user_group: string;
  /** An LDAP filter the users must match too ('' for none). */
  user_filter: string;
}

export type DirectoryConfig = DirectoryMapping & DirectorySelection & { base_dn: string };

/** LDAP_MATCHING_RULE_IN_CHAIN: Active Directory follows nested groups for a memberOf with it. */
export const AD_IN_CHAIN = '1.2.840.113556.1.4.1941';

/** The filter an Active Directory user must match to be in a group, nested groups included. */
export const adGroupFilter = (groupDn: string) => `(memberOf:${AD_IN_CHAIN}:=${escapeFilterValue(groupDn)})`;

const and = (parts: string[]) => (parts.length === 1 ? parts[0]! : `(&${parts.join('')})`);

/** The filter of the users' search: the reader's, the custom filter, and in Active Directory the group's. */
export function selectionFilter(kind: DirectoryKind, config: Pick<DirectoryConfig, 'type' | 'user_group' | 'user_filter'>): string {
  const parts = [kind.filter];
  if (config.user_filter) parts.push(config.user_filter);
  if (config.user_group && config.type === LDAP_TYPE.ad) parts.push(adGroupFilter(config.user_group));
  return and(parts);
}

/** A DN compared as the same entry: lower case, no spaces around separators, no uniqueMember's '#…'B' suffix. */
export const dnKey = (dn: string) =>
  dn
    .replace(/#'[01]*'B$/, '')
    .trim()
    .toLowerCase()
    .replace(/\s*([,=+])\s*/g, '$1');

const GROUP_CLASSES = new Set(['groupofnames', 'groupofuniquenames', 'group']);
const MEMBER_ATTRIBUTES = ['member', 'uniqueMember'];

function values(entry: Entry, name: string): string[] {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : entry[key];
  const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
  return list.map((x) => (Buffer.isBuffer(x) ? x.toString('utf8') : String(x)));
}

const isGroup = (entry: Entry) => values(entry, 'objectClass').some((c) => GROUP_CLASSES.has(c.toLowerCase())) || MEMBER_ATTRIBUTES.some((a) => values(entry, a).length > 0);

/** One entry by DN, or undefined when the directory has none (or it is outside what the account may read). */
async function lookUp(session: DirectorySession, dn: string): Promise<Entry | undefined> {
  try {
    return (await session.search(dn, { scope: 'base', filter: '(objectClass=*)', attributes: ['objectClass', ...MEMBER_ATTRIBUTES] }))[0];
  } catch (err) {
    if (err instanceof DirectoryError && err.kind === 'no_base') return undefined;
    // An invalid DN among a group's values is the group's problem, not the walk's.
    if (err instanceof DirectoryError && err.kind === 'server') return undefined;
    throw err;
  }
}

/** The chosen group as an entry; a DirectoryError the console shows when it is missing or no group. */
export async function groupEntry(session: DirectorySession, groupDn: string): Promise<Entry> {
  const top = await lookUp(session, groupDn);
  if (!top) throw new DirectoryError('no_group', M.ldapGroupMissing, `${groupDn}: no such entry`);
  if (!isGroup(top)) throw new DirectoryError('no_group', M.ldapGroupNotGroup, `${groupDn}: not a group`);
  return top;
}

/**
 * The users (by dnKey) a group holds, nested groups included: `isUser` tells a user's DN; any other
 * member is looked up and followed when it is a group. Cycle-safe and bounded (see the head comment).
 */
export async function groupMembers(session: DirectorySession, groupDn: string, isUser: (key: string) => boolean): Promise<Set<string>> {
  const selected = new Set<string>();
  const seen = new Set([dnKey(groupDn)]);
  let lookups = 1;
  let level: Entry[] = [await groupEntry(session, groupDn)];
  for (let depth = 0; level.length > 0; depth++) {
    const next: Entry[] = [];
    for (const group of level) {
      for (const member of MEMBER_ATTRIBUTES.flatMap((a) => values(group, a))) {
        const key = dnKey(member);
        if (seen.has(key)) continue;
        seen.add(key);
        if (isUser(key)) {
          selected.add(key);
          continue;
        }
        if (++lookups > LIMITS.ldapGroupLookupsMax) throw new DirectoryError('group_limit', fmt(M.ldapGroupTooLarge, { n: LIMITS.ldapGroupLookupsMax }), `${groupDn}: over ${LIMITS.ldapGroupLookupsMax} lookups`);
        const entry = await lookUp(session, member.replace(/#'[01]*'B$/, ''));
        if (!entry || !isGroup(entry)) continue;
        if (depth + 1 > LIMITS.ldapGroupDepthMax) throw new DirectoryError('group_limit', fmt(M.ldapGroupTooDeep, { n: LIMITS.ldapGroupDepthMax }), `${groupDn}: nested deeper than ${LIMITS.ldapGroupDepthMax}`);
        next.push(entry);
      }
    }
    level = next;
  }
  return selected;
}

/**
 * The selected users, one page at a time (LIMITS.ldapPageSize entries of the directory per page, fewer
 * users once a walked group leaves some out). The session is bound already.
 */
export async function* selectedUsers(session: DirectorySession, config: DirectoryConfig): AsyncGenerator<DirectoryUser[]> {
  const kind = directoryReader(config);
  const filter = selectionFilter(kind, config);
  const pageSize = LIMITS.ldapPageSize;
  let members: Set<string> | undefined;
  if (config.user_group && config.type !== LDAP_TYPE.ad) {
    const users = new Set<string>();
    for await (const page of session.pages(config.base_dn, { filter, attributes: ['1.1'], pageSize })) for (const e of page) users.add(dnKey(e.dn));
    members = await groupMembers(session, config.user_group, (key) => users.has(key));
  }
  for await (const entries of session.pages(config.base_dn, { filter, attributes: kind.attributes, buffers: kind.buffers, pageSize })) {
    const chosen = members ? entries.filter((e) => members.has(dnKey(e.dn))) : entries;
    yield chosen.map((e) => kind.read(e)).filter((u): u is DirectoryUser => u !== null);
  }
}

/**
 * Checks the selection against the directory before it is saved: the group exists and is a group, the
 * server takes the filter (one entry asked). A filter the server refuses is ldapFilterRefused with its words.
 */
export async function checkSelection(session: DirectorySession, config: DirectoryConfig): Promise<void> {
  if (config.user_group) await groupEntry(session, config.user_group);
  const kind = directoryReader(config);
  try {
    await session.search(config.base_dn, { scope: 'sub', filter: selectionFilter(kind, config), attributes: ['1.1'], sizeLimit: 1 });
  } catch (err) {
    if (err instanceof DirectoryError && err.kind === 'size_limit') return;
    // The client parses the filter too: what it or the server refuses is the filter's fault.
    if (err instanceof DirectoryError && (err.kind === 'server' || err.kind === 'other') && (config.user_filter || (config.user_group && config.type === LDAP_TYPE.ad))) {
      throw new DirectoryError('filter', fmt(M.ldapFilterRefused, { message: err.kind === 'server' ? err.message.replace(/^[^：]*：/, '') : err.detail.slice(0, 200) }), err.detail);
    }
    throw err;
  }
}
