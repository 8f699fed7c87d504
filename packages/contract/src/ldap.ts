import { z } from 'zod';
import { defineEndpoint, noData, type FileResponse } from './endpoint';
import { idField, integerField, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { ldapFilterProblem } from './ldapFilter';
import { BM, fmt, ldapMessages } from './messages';

export { escapeFilterValue, ldapFilterProblem, LDAP_FILTER_PROBLEMS } from './ldapFilter';
export { memberNameOf } from './ldapNames';

/*
 * LDAP directory sync (spec 3 §2, §3, §5, §7): a tenant connects its directory (OpenLDAP or Active
 * Directory), reads its users and imports them as software members, which the sync keeps in step.
 */

/** type of spec 3 §3: 1 OpenLDAP (uid, entryUUID, description), 2 Active Directory (sAMAccountName, objectGUID, userAccountControl). */
export const LDAP_TYPE = { openldap: 1, ad: 2 } as const;
/** sync_mode: 1 manual (the console's one-key sync), 2 automatic (a sync every cycle minutes). */
export const LDAP_SYNC_MODE = { manual: 1, automatic: 2 } as const;
export const LDAP_MODES = ['public', 'private'] as const;
export type LdapMode = (typeof LDAP_MODES)[number];
/** The saved password as /ldap/config shows it; a check or save that sends it back keeps the saved one. */
export const LDAP_PASSWORD_MASK = '******';
/** member.source of a software member imported from the directory (it signs in with its directory password). */
export const LDAP_MEMBER_SOURCE = 'ldap';
/** The CA files /ldap/upload takes, by name. */
export const LDAP_CA_EXTENSIONS = ['cert', 'crt', 'cer', 'pem'] as const;

const HOST_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;
const IPV6 = /^[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}$/;
/** A host as the form takes it: a DNS name, an IPv4 address or an IPv6 address (without brackets). */
export const isLdapHost = (v: string) => HOST_NAME.test(v) || IPV6.test(v);

const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
/**
 * A domain name (spec 3 §5): letters, digits and hyphens, at least one dot, each label 1 to 63 and
 * not starting or ending with a hyphen; the last label holds a letter (an address is no domain).
 */
export function isDomainName(v: string): boolean {
  if (v.length > LIMITS.ldapDomainMax) return false;
  const labels = v.split('.');
  return labels.length >= 2 && labels.every((l) => l.length <= LIMITS.ldapDomainLabelMax && LABEL.test(l)) && /[a-z]/i.test(labels.at(-1)!);
}

const RDN = /^\s*(?:[A-Za-z][A-Za-z0-9-]*|\d+(?:\.\d+)+)\s*=\s*\S/;
/** A distinguished name: RDNs 'attr=value' separated by commas ('\,' is a comma inside a value). */
export function isDn(v: string): boolean {
  const rdns: string[] = [];
  let current = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    if (c === '\\') {
      current += c + (v[i + 1] ?? '');
      i++;
    } else if (c === ',') {
      rdns.push(current);
      current = '';
    } else current += c;
  }
  rdns.push(current);
  return rdns.every((r) => RDN.test(r));
}

/** The domain as the form takes it: trimmed, lower-cased, then checked. */
export const ldapDomainField = requiredString(ldapMessages.ldapDomainRequired)
  .overwrite((v) => v.toLowerCase())
  .refine(isDomainName, ldapMessages.ldapDomainInvalid);

const flag = (message: string) => integerField(message, 0, 1);

/**
 * Where each field of a member comes from, per type (issue 33): the member name, the note, the phone
 * and the e-mail address. '' for phone and email: not read. The defaults are what the sync always read.
 */
export const LDAP_DEFAULT_ATTRIBUTES: Record<number, { name_attr: string; note_attr: string; phone_attr: string; email_attr: string }> = {
  [LDAP_TYPE.openldap]: { name_attr: 'uid', note_attr: 'description', phone_attr: '', email_attr: '' },
  [LDAP_TYPE.ad]: { name_attr: 'sAMAccountName', note_attr: 'description', phone_attr: '', email_attr: '' },
};
export const ldapDefaultAttributes = (type: number) => LDAP_DEFAULT_ATTRIBUTES[type] ?? LDAP_DEFAULT_ATTRIBUTES[LDAP_TYPE.openldap]!;

const ATTRIBUTE_NAME = /^[A-Za-z][A-Za-z0-9-]*$/;
/** An attribute's name ('' allowed: the type's default for the name, nothing for the others). */
const attributeField = plainText(ldapMessages.ldapAttributeInvalid)
  .max(LIMITS.ldapAttributeMax, fmt(ldapMessages.ldapAttributeTooLong, { n: LIMITS.ldapAttributeMax }))
  .refine((v) => v === '' || ATTRIBUTE_NAME.test(v), ldapMessages.ldapAttributeInvalid);

/** The fields of user selection and attribute mapping (issue 33), shared by the form's body and the saved configuration. */
const selectionFields = {
  /** A group whose members (nested groups included) are the users read; '' for every user under base_dn. */
  user_group: plainText(ldapMessages.ldapGroupDnInvalid)
    .max(LIMITS.ldapGroupDnMax, fmt(ldapMessages.ldapGroupDnTooLong, { n: LIMITS.ldapGroupDnMax }))
    .refine((v) => v === '' || isDn(v), ldapMessages.ldapGroupDnInvalid)
    .default(''),
  /** An LDAP filter the users must match too; '' for none. */
  user_filter: plainText(ldapMessages.ldapFilterInvalid)
    .max(LIMITS.ldapFilterMax, fmt(ldapMessages.ldapFilterTooLong, { n: LIMITS.ldapFilterMax }))
    .superRefine((v, ctx) => {
      const problem = v === '' ? null : ldapFilterProblem(v);
      if (problem) ctx.addIssue({ code: 'custom', message: fmt(ldapMessages.ldapFilterInvalid, { reason: problem }) });
    })
    .default(''),
  /** The attribute the member name comes from ('' the type's default: uid, sAMAccountName); a value with '@' keeps what precedes it. */
  name_attr: attributeField.default(''),
  /** 1: member names are lower-cased (see memberNameOf). */
  name_lower: flag(ldapMessages.ldapAttributeInvalid).default(0),
  note_attr: attributeField.default('description'),
  phone_attr: attributeField.default(''),
  email_attr: attributeField.default(''),
};
const SYNC_CYCLE_RANGE = fmt(ldapMessages.ldapSyncCycleRange, { min: LIMITS.ldapSyncCycleMin, max: LIMITS.ldapSyncCycleMax });

/** The port: digits only, at most five of them, 1 to 65535 (a JSON number is taken too). */
const portField = z
  .union([z.number(), z.string()], { error: ldapMessages.ldapPortRequired })
  .transform((v) => String(v).trim())
  .pipe(
    z
      .string()
      .min(1, ldapMessages.ldapPortRequired)
      .regex(/^\d+$/, ldapMessages.ldapPortDigits)
      .max(LIMITS.ldapPortDigits, fmt(ldapMessages.ldapPortRange, { n: LIMITS.ldapPortMax }))
      .transform(Number)
      .pipe(z.number().min(1, fmt(ldapMessages.ldapPortRange, { n: LIMITS.ldapPortMax })).max(LIMITS.ldapPortMax, fmt(ldapMessages.ldapPortRange, { n: LIMITS.ldapPortMax }))),
  );

/** What /ldap/check and /ldap/save carry (spec 3 §7), in the order of the form (the first failing rule answers). */
export const ldapConfigBody = z
  .object({
    mode: z.enum(LDAP_MODES, { error: ldapMessages.ldapModeRequired }),
    /** A hardware member of the tenant; only in private mode. */
    router_name: plainText(ldapMessages.ldapRouterMissing).max(LIMITS.memberNameMax, ldapMessages.ldapRouterMissing).default(''),
    domain: ldapDomainField,
    host: requiredString(ldapMessages.ldapHostRequired)
      .max(LIMITS.ldapHostMax, fmt(ldapMessages.ldapHostTooLong, { n: LIMITS.ldapHostMax }))
      .refine(isLdapHost, ldapMessages.ldapHostInvalid),
    port: portField,
    base_dn: requiredString(ldapMessages.ldapBaseDnRequired)
      .max(LIMITS.ldapBaseDnMax, fmt(ldapMessages.ldapBaseDnTooLong, { n: LIMITS.ldapBaseDnMax }))
      .refine(isDn, ldapMessages.ldapBaseDnInvalid),
    /** 1: LDAPS (ca_id required). */
    use_ssl: flag(ldapMessages.ldapSslRequired).default(0),
    /** 1: StartTLS on the plain port (ca_id optional: the uploaded CA, else the system's). */
    use_tls: flag(ldapMessages.ldapSslRequired).default(0),
    ca_id: idField(ldapMessages.ldapCaMissing).nullable().default(null),
    type: integerField(ldapMessages.ldapTypeRequired, LDAP_TYPE.openldap, LDAP_TYPE.ad),
    /** The DN the server binds as to read the directory. */
    username: requiredString(ldapMessages.ldapUsernameRequired)
      .max(LIMITS.ldapUsernameMax, fmt(ldapMessages.ldapUsernameTooLong, { n: LIMITS.ldapUsernameMax }))
      .refine(isDn, ldapMessages.ldapUsernameInvalid),
    /** Its password; LDAP_PASSWORD_MASK keeps the saved one. Not trimmed: spaces may be part of it. */
    password: z
      .string({ error: ldapMessages.ldapPasswordRequired })
      .min(1, ldapMessages.ldapPasswordRequired)
      .max(LIMITS.ldapPasswordMax, fmt(ldapMessages.ldapPasswordTooLong, { n: LIMITS.ldapPasswordMax })),
    ...selectionFields,
    /** A network imported members join as points; '' for none. */
    network_number: plainText(ldapMessages.ldapNetworkMissing).max(LIMITS.networkNumberMax, ldapMessages.ldapNetworkMissing).default(''),
    sync_mode: integerField(ldapMessages.ldapSyncModeRequired, LDAP_SYNC_MODE.manual, LDAP_SYNC_MODE.automatic),
    /** 1: the automatic sync imports users it sees for the first time (into network_number); issue 33. */
    auto_import: flag(ldapMessages.ldapAutoImportInvalid).default(0),
    /** Minutes between two automatic syncs. */
    sync_cycle: integerField(SYNC_CYCLE_RANGE, LIMITS.ldapSyncCycleMin, LIMITS.ldapSyncCycleMax).default(LIMITS.ldapSyncCycleMinutes),
  })
  .superRefine((v, ctx) => {
    if (v.mode === 'private' && v.router_name === '') ctx.addIssue({ code: 'custom', path: ['router_name'], message: ldapMessages.ldapRouterRequired });
    if (v.use_ssl === 1 && v.use_tls === 1) ctx.addIssue({ code: 'custom', path: ['use_tls'], message: ldapMessages.ldapSslAndTls });
    if (v.use_ssl === 1 && v.ca_id === null) ctx.addIssue({ code: 'custom', path: ['ca_id'], message: ldapMessages.ldapCaRequired });
  });
export type LdapConfigInput = z.output<typeof ldapConfigBody>;

/** The saved configuration as /ldap/config shows it (spec 3 §3); the password is always the mask. */
export const ldapConfig = z.object({
  mode: z.enum(LDAP_MODES),
  router_name: z.string(),
  domain: z.string(),
  host: z.string(),
  port: z.number(),
  base_dn: z.string(),
  use_ssl: z.number(),
  use_tls: z.number(),
  ca_id: z.number().nullable(),
  /** The uploaded CA's file name ('' without one). */
  file_name: z.string(),
  username: z.string(),
  password: z.string(),
  type: z.number(),
  user_group: z.string(),
  user_filter: z.string(),
  /** The attribute in effect (the type's default when none was chosen). */
  name_attr: z.string(),
  name_lower: z.number(),
  note_attr: z.string(),
  phone_attr: z.string(),
  email_attr: z.string(),
  network_number: z.string(),
  /** '' when no network is chosen or it no longer exists. */
  network_name: z.string(),
  sync_mode: z.number(),
  auto_import: z.number(),
  sync_cycle: z.number(),
  update_time: z.string(),
  create_time: z.string(),
  /** 1 enabled. */
  status: z.number(),
});
export type LdapConfig = z.infer<typeof ldapConfig>;

/** GET /ldap/status: whether LDAP is on and how it syncs (the member list's "sync users" button). */
export const ldapStatus = defineEndpoint({
  path: '/ldap/status',
  method: 'GET',
  access: 'user',
  response: z.object({ enable: z.number(), sync_mode: z.number() }),
});

/** GET /ldap/config: enable (0/1), the saved configuration (null when none), and a notice of what no longer holds ('' when all is well). */
export const getLdapConfig = defineEndpoint({
  path: '/ldap/config',
  method: 'GET',
  access: 'user',
  response: z.object({ enable: z.number(), data: ldapConfig.nullable(), notice: z.string() }),
});

/** POST /ldap/check: binds with the username and password and reads base_dn; the directory's failure is the msg (422). */
export const checkLdap = defineEndpoint({
  path: '/ldap/check',
  method: 'POST',
  access: 'main',
  body: ldapConfigBody,
  response: noData,
});

/** A directory user as the preview shows it: the directory's name, the member name it maps to and why it cannot be imported ('' when it can). */
export const ldapPreviewUser = z.object({
  username: z.string(),
  member_name: z.string(),
  description: z.string(),
  phone: z.string(),
  email: z.string(),
  disable: z.number(),
  /** '' or ldapMessages.ldapNameEmpty / ldapNameCollision. */
  issue: z.string(),
});
export type LdapPreviewUser = z.infer<typeof ldapPreviewUser>;

/**
 * POST /ldap/preview: runs the form's selection and mapping against the directory (as /ldap/check
 * connects) and answers how many users it selects, the first LIMITS.ldapPreviewShown of them, and the
 * users whose names map to nothing or collide (issue_count of them, the first ldapPreviewShown listed).
 */
export const previewLdap = defineEndpoint({
  path: '/ldap/preview',
  method: 'POST',
  access: 'main',
  body: ldapConfigBody,
  response: z.object({ count: z.number(), users: z.array(ldapPreviewUser), issue_count: z.number(), issues: z.array(ldapPreviewUser) }),
});

/**
 * POST /ldap/save: checks as /ldap/check does, then saves and reads the directory's users. A domain
 * whose ownership is not verified answers 423 with data.file_name, the verification file to place.
 */
export const saveLdap = defineEndpoint({
  path: '/ldap/save',
  method: 'POST',
  access: 'main',
  body: ldapConfigBody,
  response: noData,
});

/** data of the 423 a save answers for a domain not yet verified: the file to place, or the TXT record to publish (issue 33). */
export const ldapDomainPending = z.object({ file_name: z.string(), txt_name: z.string().default(''), txt_value: z.string().default('') });

/** POST /ldap/delete: closes LDAP; the imported software members are deleted. */
export const deleteLdap = defineEndpoint({ path: '/ldap/delete', method: 'POST', access: 'main', response: noData });

/** POST /ldap/upload: multipart with one CA certificate 'file' (cert, crt, cer, pem; PEM content; under 2 MB). */
export const uploadLdapCa = defineEndpoint({
  path: '/ldap/upload',
  method: 'POST',
  access: 'main',
  response: z.object({ ca_id: z.number(), file_name: z.string() }),
});

export const ldapDomainQuery = z.object({ domain: ldapDomainField });

export const LDAP_VERIFY_FILE: FileResponse = { file: 'text/plain; charset=utf-8' };

/** GET /ldap/download_verify_domain?domain: the verification file of the tenant and domain. */
export const downloadLdapVerifyFile = defineEndpoint({
  path: '/ldap/download_verify_domain',
  method: 'GET',
  access: 'main',
  query: ldapDomainQuery,
  response: LDAP_VERIFY_FILE,
});

/** POST /ldap/verify_domain: reads the TXT record (_hublink-verify.<domain>) or fetches the verification file from the domain and, when one holds the token, marks the domain verified. */
export const verifyLdapDomain = defineEndpoint({
  path: '/ldap/verify_domain',
  method: 'POST',
  access: 'main',
  body: ldapDomainQuery,
  response: noData,
});

/** A directory user as the list shows it (spec 3 §3). */
export const ldapUser = z.object({
  /** The name as the directory has it (the name attribute). */
  username: z.string(),
  /** The member name it maps to (memberNameOf; '' when nothing is left). */
  member_name: z.string(),
  description: z.string(),
  phone: z.string(),
  email: z.string(),
  /** '' or why the name cannot be a member's: ldapMessages.ldapNameEmpty / ldapNameCollision. */
  issue: z.string(),
  /** entryUUID (OpenLDAP) or objectGUID (Active Directory). */
  uuid: z.string(),
  /** Imported: a software member stands for the user (shown as 已导入). */
  exist: z.boolean(),
  /** Why the last import-all could not import the user ('' when nothing went wrong). */
  verify: z.string(),
  /** 1 disabled in the directory. */
  disable: z.number(),
});
export type LdapUser = z.infer<typeof ldapUser>;

/** The listing's version: calls that act on the listing carry it, and are refused once it changed. */
const hashField = requiredString(ldapMessages.ldapHashRequired).max(64, ldapMessages.ldapStale);
const uuidField = requiredString(ldapMessages.ldapUserMissing).max(64, ldapMessages.ldapUserMissing);

/**
 * GET /ldap/user: the directory's users as last read; search matches the username or the description
 * (and shows at most LIMITS.ldapSearchShown); exist 1 only imported ones, 0 only the others.
 */
export const listLdapUsers = defineEndpoint({
  path: '/ldap/user',
  method: 'GET',
  access: 'user',
  query: pageQuery.extend({ exist: flag(BM.validationFailed).optional() }),
  response: z.object({ list: z.array(ldapUser), hash: z.string() }),
  paged: true,
});

export const importLdapUser = defineEndpoint({
  path: '/ldap/import',
  method: 'POST',
  access: 'easylink.router.create',
  body: z.object({ hash: hashField, uuid: uuidField }),
  response: noData,
});

/** POST /ldap/import_all: every user not yet imported; each one that cannot be gets its reason in verify. */
export const importAllLdapUsers = defineEndpoint({
  path: '/ldap/import_all',
  method: 'POST',
  access: 'easylink.router.create',
  body: z.object({ hash: hashField }),
  response: z.object({ success: z.number(), fail: z.number() }),
});

export const removeLdapUser = defineEndpoint({
  path: '/ldap/remove',
  method: 'POST',
  access: 'easylink.router.delete',
  body: z.object({ hash: hashField, uuid: uuidField }),
  response: noData,
});

export const removeAllLdapUsers = defineEndpoint({
  path: '/ldap/remove_all',
  method: 'POST',
  access: 'easylink.router.delete',
  body: z.object({ hash: hashField }),
  response: z.object({ count: z.number() }),
});

/** POST /ldap/remove_disable: the members of users disabled in the directory. */
export const removeDisabledLdapUsers = defineEndpoint({
  path: '/ldap/remove_disable',
  method: 'POST',
  access: 'easylink.router.delete',
  body: z.object({ hash: hashField }),
  response: z.object({ count: z.number() }),
});

/** POST /ldap/sync: reads the directory now and brings the imported members in step. */
export const syncLdap = defineEndpoint({
  path: '/ldap/sync',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ hash: hashField }),
  response: noData,
});

export const setLdapSyncMode = defineEndpoint({
  path: '/ldap/sync_mode',
  method: 'POST',
  access: 'main',
  body: z.object({ sync_mode: integerField(ldapMessages.ldapSyncModeRequired, LDAP_SYNC_MODE.manual, LDAP_SYNC_MODE.automatic) }),
  response: noData,
});

/** The sync service (spec 3 §3): status 1 running, 0 abnormal (message says why); cycle in minutes, operation_hours in seconds. */
export const ldapSyncService = z.object({
  status: z.number(),
  /** When the last sync ended ('' before the first). */
  update_time: z.string(),
  cycle: z.number(),
  operation_hours: z.number(),
  message: z.string(),
});

/** GET /ldap/sync_status: the directory's users as last read (count) and the sync service. */
export const ldapSyncStatus = defineEndpoint({
  path: '/ldap/sync_status',
  method: 'GET',
  access: 'user',
  response: z.object({ count: z.number(), service: ldapSyncService }),
});

/** POST /ldap/restart_sync: clears an abnormal state and syncs now. */
export const restartLdapSync = defineEndpoint({ path: '/ldap/restart_sync', method: 'POST', access: 'main', response: noData });
