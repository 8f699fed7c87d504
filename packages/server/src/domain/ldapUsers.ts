import type { Entry } from 'ldapts';
import { ldapDefaultAttributes, LDAP_TYPE, LIMITS, memberNameOf } from '@hublink/contract';

/*
 * The users of a directory, as each kind of directory keeps them (spec 3 §3 type): where the name,
 * the stable id and the description are, and what marks a user disabled. The name, note, phone and
 * e-mail attributes can be chosen (issue 33, DirectoryMapping); the name maps to a member name by the
 * contract's rule (memberNameOf). The defaults:
 *  - OpenLDAP (1): uid, entryUUID, description; disabled when shadowExpire (nis schema, days since
 *    1970-01-01) names a day that has begun: a marker every slapd holds without extra modules.
 *  - Active Directory (2): sAMAccountName, objectGUID (16 bytes, shown as AD shows GUIDs),
 *    description; disabled when userAccountControl has bit 2 (ACCOUNTDISABLE). Computers are users
 *    too in AD and are left out.
 */

export interface DirectoryUser {
  dn: string;
  uuid: string;
  /** The name as the directory has it (the name attribute; for a mail or UPN the whole value). */
  username: string;
  /** The member name it maps to (contract memberNameOf); '' when nothing is left. */
  member_name: string;
  description: string;
  phone: string;
  email: string;
  disabled: boolean;
}

/** Where a user's fields come from (ldap_config's mapping columns; '' name_attr: the type's default). */
export interface DirectoryMapping {
  type: number;
  name_attr: string;
  name_lower: number;
  note_attr: string;
  phone_attr: string;
  email_attr: string;
}

export interface DirectoryKind {
  /** The users among the entries under base_dn (those with a name). */
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

const PHONE_MAX = 64;
const EMAIL_MAX = 255;

/** The user an entry is under a mapping: its name, note, phone and e-mail from the mapped attributes. */
function user(entry: Entry, m: Required<Omit<DirectoryMapping, 'type'>>, uuid: string, disabled: boolean): DirectoryUser | null {
  const name = kept(text(entry, m.name_attr), USERNAME_KEPT);
  if (!uuid || !name || uuid.length > 64) return null;
  const optional = (attr: string, max: number) => (attr ? kept(text(entry, attr), max) : '');
  return {
    dn: entry.dn,
    uuid,
    username: name,
    member_name: memberNameOf(name, m.name_lower === 1),
    description: optional(m.note_attr, LIMITS.ldapDescriptionMax),
    phone: optional(m.phone_attr, PHONE_MAX),
    email: optional(m.email_attr, EMAIL_MAX),
    disabled,
  };
}

const unique = (names: string[]) => names.filter((n, i) => n && names.findIndex((o) => o.toLowerCase() === n.toLowerCase()) === i);

/**
 * How users are read from a directory of a type under a mapping: an entry is a user when it has the
 * name attribute (and, in Active Directory, is a user and no computer).
 */
export function directoryReader(mapping: DirectoryMapping): DirectoryKind {
  const type = mapping.type === LDAP_TYPE.ad ? LDAP_TYPE.ad : LDAP_TYPE.openldap;
  const defaults = ldapDefaultAttributes(type);
  const m = { ...mapping, name_attr: mapping.name_attr || defaults.name_attr };
  const mapped = [m.name_attr, m.note_attr, m.phone_attr, m.email_attr];
  if (type === LDAP_TYPE.ad) {
    return {
      filter: `(&(objectClass=user)(${m.name_attr}=*)(!(objectClass=computer)))`,
      attributes: unique([...mapped, 'objectGUID', 'userAccountControl']),
      buffers: ['objectGUID'],
      read(entry) {
        const guid = valueOf(entry, 'objectGUID');
        const control = Number.parseInt(text(entry, 'userAccountControl'), 10);
        const disabled = Number.isSafeInteger(control) && (control & ACCOUNT_DISABLE) !== 0;
        return user(entry, m, Buffer.isBuffer(guid) ? guidText(guid) : '', disabled);
      },
    };
  }
  return {
    filter: `(${m.name_attr}=*)`,
    attributes: unique([...mapped, 'entryUUID', 'shadowExpire']),
    buffers: [],
    read(entry, now = Date.now()) {
      const expire = Number.parseInt(text(entry, 'shadowExpire'), 10);
      const disabled = Number.isSafeInteger(expire) && expire >= 0 && expire * DAY_MS <= now;
      return user(entry, m, text(entry, 'entryUUID').toLowerCase(), disabled);
    },
  };
}

/** The reader of a type with its default mapping (what a member's sign-in reads of its own entry). */
export const directoryKindOf = (type: number): DirectoryKind => directoryReader({ name_lower: 0, ...ldapDefaultAttributes(type), type });
