import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, ramMessages } from './messages';
import { recordId } from './ram';

const roleFlag = z.union([z.literal(0), z.literal(1)]);
export type RoleFlag = z.infer<typeof roleFlag>;

/** The permissions a role grants (spec 1 §3), as stored and answered: each flag 1 or 0. */
export const roleAuth = z.object({
  'easylink.router': z.object({ create: roleFlag, edit: roleFlag, delete: roleFlag }),
  'easylink.network': z.object({ create: roleFlag, edit: roleFlag, delete: roleFlag, network: z.array(z.string()) }),
  monitor: z.object({ view: roleFlag, create: roleFlag, edit: roleFlag, delete: roleFlag }),
});
export type RoleAuth = z.infer<typeof roleAuth>;

const flag = z.union([z.literal(0), z.literal(1)], { error: BM.validationFailed }).default(0);

const networkNumbers = z
  .array(plainText(BM.validationFailed).max(LIMITS.networkNumberMax, fmt(ramMessages.roleNetworkTooLong, { n: LIMITS.networkNumberMax })), {
    error: BM.validationFailed,
  })
  .max(LIMITS.roleNetworksMax, fmt(ramMessages.roleNetworksTooMany, { n: LIMITS.roleNetworksMax }))
  .default([]);

/**
 * The rules of spec 1 §4–§5, applied to whatever the caller sends: empty network numbers are
 * dropped (and repeats), view is always on, and a role with specified networks cannot create networks.
 */
export function normalizeRoleAuth(auth: RoleAuth): RoleAuth {
  const network = [...new Set(auth['easylink.network'].network.map((n) => n.trim()).filter((n) => n !== ''))];
  return {
    'easylink.router': { create: auth['easylink.router'].create, edit: auth['easylink.router'].edit, delete: auth['easylink.router'].delete },
    'easylink.network': {
      create: network.length > 0 ? 0 : auth['easylink.network'].create,
      edit: auth['easylink.network'].edit,
      delete: auth['easylink.network'].delete,
      network,
    },
    monitor: { view: 1, create: auth.monitor.create, edit: auth.monitor.edit, delete: auth.monitor.delete },
  };
}

export const roleAuthField = z
  .object(
    {
      'easylink.router': z.object({ create: flag, edit: flag, delete: flag }).prefault({}),
      'easylink.network': z.object({ create: flag, edit: flag, delete: flag, network: networkNumbers }).prefault({}),
      monitor: z.object({ view: flag, create: flag, edit: flag, delete: flag }).prefault({}),
    },
    { error: BM.validationFailed },
  )
  .prefault({})
  .transform(normalizeRoleAuth);

const roleFields = {
  name: requiredString(ramMessages.roleNameRequired).max(LIMITS.roleNameMax, fmt(ramMessages.roleNameTooLong, { n: LIMITS.roleNameMax })),
  note: plainText(BM.validationFailed)
    .max(LIMITS.roleNoteMax, fmt(ramMessages.roleNoteTooLong, { n: LIMITS.roleNoteMax }))
    .default(''),
  auth: roleAuthField,
};

export const roleItem = z.object({
  id: z.number(),
  name: z.string(),
  note: z.string(),
  create_time: z.string(),
  update_time: z.string(),
});
export type RoleItem = z.infer<typeof roleItem>;

export const roleDetail = roleItem.extend({
  auth: roleAuth,
  /** The role's network numbers with their names; '' for a network deleted since. */
  networks: z.array(z.object({ network_number: z.string(), network_name: z.string() })),
});
export type RoleDetail = z.infer<typeof roleDetail>;

/** GET /ram_role/lists: search matches the name. */
export const listRoles = defineEndpoint({
  path: '/ram_role/lists',
  method: 'GET',
  access: 'main',
  query: pageQuery,
  response: z.array(roleItem),
  paged: true,
});

export const roleInfo = defineEndpoint({
  path: '/ram_role/info',
  method: 'GET',
  access: 'main',
  query: z.object({ id: recordId }),
  response: roleDetail,
});

/** GET /ram_role/select: every role of the tenant, for the sub-account form. */
export const selectRoles = defineEndpoint({
  path: '/ram_role/select',
  method: 'GET',
  access: 'main',
  response: z.array(z.object({ id: z.number(), name: z.string() })),
});

export const createRole = defineEndpoint({
  path: '/ram_role/create',
  method: 'POST',
  access: 'main',
  body: z.object(roleFields),
  response: z.object({ id: z.number() }),
});

export const editRole = defineEndpoint({
  path: '/ram_role/edit',
  method: 'POST',
  access: 'main',
  body: z.object({ id: recordId, ...roleFields }),
  response: noData,
});

/** POST /ram_role/delete: refused while a sub-account has the role. */
export const deleteRole = defineEndpoint({
  path: '/ram_role/delete',
  method: 'POST',
  access: 'main',
  body: z.object({ id: recordId }),
  response: noData,
});
