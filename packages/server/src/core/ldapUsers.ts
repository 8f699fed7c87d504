import type { Entry } from 'ldapts';
import { LDAP_TYPE, LIMITS } from '@hublink/contract';

/*
 * The users of a directory, as each kind of directory keeps them (spec 3 §3 type): where the name,
 * the stable id and the description are, and what marks a user disabled.
 *  - OpenLDAP (1): uid, entryUUID, description; disabled when shadowExpire (nis schema, days since
 *    1970-01-01) names a day that has begun: a marker every slapd holds without extra modules.
 *  - Active Directory (2): sAMAccountName, objectGUID (16 bytes, shown as AD shows GUIDs),
 *    description; disabled when userAccountControl has bit 2 (ACCOUNTDISABLE). Computers are users
 *    too in AD and are left out.
 */

export interface DirectoryUser {
  dn: string;
  uuid: string;
  username: string;
  description: string;
  disabled: boolean;
}

export interface DirectoryKind {
  /** The users among the entries under base_dn. */
  filter: string;
  attributes: string[];
  /** Attributes read as bytes. */
  buffers: string[];
  /** The user an entry is, or null when it lacks a name or an id. */
  read(entry: Entry, now?: number): DirectoryUser | null;
}

const DAY_MS = 86_400_000;
const ACCOUNT_DISABLE = 0x2;
/** Characters of a name kept: longer ones cannot be a member's name anyway. */
const USERNAME_KEPT = 256;

/** One value of an attribute, whatever case the server spelled its name in. */
function valueOf(entry: Entry, name: string): string | Buffer | undefined {
  const key = Object.keys(entry).find((k) => k.toLowerCase() === name.toLowerCase());
  const v = key === undefined ? undefined : entry[key];
  return Array.isArray(v) ? v[0] : v;
}

const text = (entry: Entry, name: string): string => {
  const v = valueOf(entry, name);
  return v === undefined ? '' : Buffer.isBuffer(v) ? v.toString('utf8') : v;
};

/** Text as the listing keeps it: no control characters or lone surrogates (see contract fields), trimmed, cut. */
const kept = (v: string, max: number) =>
  // eslint-disable-next-line no-control-regex -- dropping control characters is the point
  v.replace(/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '').trim().slice(0, max);

/** An objectGUID as AD writes it: the first three groups little-endian. */
export function guidText(bytes: Buffer): string {
  if (bytes.length !== 16) return bytes.toString('hex');
  const hex = (from: number, to: number, reverse: boolean) => {
    const part = Buffer.from(bytes.subarray(from, to));
    return (reverse ? part.reverse() : part).toString('hex');
  };
  return `${hex(0, 4, true)}-${hex(4, 6, true)}-${hex(6, 8, true)}-${hex(8, 10, false)}-${hex(10, 16, false)}`;
}

function user(entry: Entry, uuid: string, username: string, disabled: boolean): DirectoryUser | null {
  const name = kept(username, USERNAME_KEPT);
  if (!uuid || !name || uuid.length > 64) return null;
  return { dn: entry.dn, uuid, username: name, description: kept(text(entry, 'description'), LIMITS.ldapDescriptionMax), disabled };
}

export const DIRECTORY_KINDS: Record<number, DirectoryKind> = {
  [LDAP_TYPE.openldap]: {
    filter: '(uid=*)',
    attributes: ['uid', 'entryUUID', 'description', 'shadowExpire'],
    buffers: [],
    read(entry, now = Date.now()) {
      const expire = Number.parseInt(text(entry, 'shadowExpire'), 10);
      const disabled = Number.isSafeInteger(expire) && expire >= 0 && expire * DAY_MS <= now;
      return user(entry, text(entry, 'entryUUID').toLowerCase(), text(entry, 'uid'), disabled);
    },
  },
  [LDAP_TYPE.ad]: {
    filter: '(&(objectClass=user)(sAMAccountName=*)(!(objectClass=computer)))',
    attributes: ['sAMAccountName', 'objectGUID', 'description', 'userAccountControl'],
    buffers: ['objectGUID'],
    read(entry) {
      const guid = valueOf(entry, 'objectGUID');
      const control = Number.parseInt(text(entry, 'userAccountControl'), 10);
      const disabled = Number.isSafeInteger(control) && (control & ACCOUNT_DISABLE) !== 0;
      return user(entry, Buffer.isBuffer(guid) ? guidText(guid) : '', text(entry, 'sAMAccountName'), disabled);
    },
  },
};

/** The kind of a stored type (OpenLDAP for anything unknown). */
export const directoryKindOf = (type: number): DirectoryKind => DIRECTORY_KINDS[type] ?? DIRECTORY_KINDS[LDAP_TYPE.openldap]!;
