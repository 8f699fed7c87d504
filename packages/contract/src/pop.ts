import { z } from 'zod';
import { ipToNumber, isNetworkAddress, overlaps, parseCidr } from './segments';
import { defineEndpoint, noData } from './endpoint';
import { idField, integerField, pageQuery, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { fmt, networkMessages, popMessages, routerMessages } from './messages';
import { networkNumberField } from './network';
import { DIAL_MODE } from './networkSettings';

/*
 * POP resources (network_fr) and what a network does with them (spec 2 §2–§5, §7): the resource list,
 * the POP resource config of a network with its line mode, the members' POP areas and the network's IP
 * address pools.
 */

/** The resource's status (spec 2 §2): 1 valid, anything else processing. */
export const FR_STATUS = { valid: 1, processing: 2 } as const;
/** The network's line mode (spec 2 §3): 1 default, 2 center first, 3 POP first. */
export const LINE_MODE = DIAL_MODE;
/** The POP config page's network name field (spec 2 §9: 32 there, 24 elsewhere). */
export const POP_EDIT_NAME_MAX = 32;
/** Pool masks: the mask options of spec 2 §9. */
export const POOL_MASK = { min: 16, max: 24 } as const;
/** The IP address pool dialog opens this long after the POP config's 423 warning (spec 2 §4, §8). */
export const POOL_DIALOG_DELAY_MS = 2500;
/** A member's backup area is offered only when the resource has at least this many areas (more than two, spec 2 §4). */
export const BACKUP_AREA_FROM = 3;

const onNetwork = { network_number: networkNumberField };

/**
 * POST /network/pop_name: the POP config page renames the network, up to 32 characters there (spec 2
 * §2, §9; 24 everywhere else). Only a network with a POP resource, as the page itself.
 */
export const renameNetworkOnPop = defineEndpoint({
  path: '/network/pop_name',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    ...onNetwork,
    network_name: requiredString(networkMessages.networkNameRequired).max(POP_EDIT_NAME_MAX, fmt(popMessages.popEditNameTooLong, { n: POP_EDIT_NAME_MAX })),
  }),
  response: noData,
});

// ---- the resource list ----

export const frItem = z.object({
  network_fr_id: z.number(),
  name: z.string(),
  /** Seconds (spec 2 §9). */
  create_time: z.number(),
  /** Seconds. */
  expire_time: z.number(),
  /** Whole days left, 0 once expired. */
  expire_day: z.number(),
  status: z.number(),
  /** The networks using it. */
  network: z.array(z.object({ network_name: z.string(), network_number: z.string() })),
  area: z.array(z.object({ name: z.string(), bandwidth: z.number() })),
});
export type FrItem = z.infer<typeof frItem>;

export const listFr = defineEndpoint({
  path: '/network_fr/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(frItem),
  paged: true,
});

/** A resource a network may pick in the POP resource config: valid and not expired. */
export const frChoice = z.object({ network_fr_id: z.number(), shortname: z.string(), expire_day: z.number(), area_count: z.number() });
export type FrChoice = z.infer<typeof frChoice>;

export const frConfig = defineEndpoint({
  path: '/network_fr/config',
  method: 'GET',
  access: 'user',
  response: z.array(frChoice),
});

/** One area of a POP resource (ov_id of a member names one). */
export const frArea = z.object({ id: z.number(), name: z.string(), region: z.string(), bandwidth: z.number() });
export type FrArea = z.infer<typeof frArea>;

/** The areas of the network's POP resource (none without one). */
export const frOv = defineEndpoint({
  path: '/network_fr/ov',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object(onNetwork),
  response: z.array(frArea),
});

// ---- a network's POP resource and line mode ----

/** Answers 423 (and changes nothing) while the network has no POP pool yet. */
export const setNetworkFr = defineEndpoint({
  path: '/network/fr',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    ...onNetwork,
    network_fr_id: idField(popMessages.popFrRequired),
    mode: integerField(popMessages.popModeInvalid, LINE_MODE.default, LINE_MODE.popFirst),
  }),
  response: noData,
});

/**
 * A member's main and backup area (ids of the network resource's areas; backup 0 for none). Main 0
 * (with backup 0) clears them: the POP config page moves a member back to the pool.
 */
export const setMemberOv = defineEndpoint({
  path: '/network/member_ov',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      ...onNetwork,
      router_name: plainText(routerMessages.memberNotFound).min(1, routerMessages.memberNotFound).max(64, routerMessages.memberNotFound),
      ov_id_main: integerField(popMessages.popAreaMainRequired, 0, LIMITS.maxId),
      ov_id_backup: integerField(popMessages.popAreaNotOfFr, 0, LIMITS.maxId).default(0),
    })
    .refine((v) => v.ov_id_backup === 0 || v.ov_id_main !== 0, { path: ['ov_id_main'], message: popMessages.popAreaMainRequired })
    .refine((v) => v.ov_id_backup === 0 || v.ov_id_backup !== v.ov_id_main, { path: ['ov_id_backup'], message: popMessages.popAreaSame }),
  response: noData,
});

// ---- IP address pools ----

export const POOL_KEYS = ['pop', 'center_link_network', 'center_network', 'pop_software', 'other'] as const;
export type PoolKey = (typeof POOL_KEYS)[number];
export const POOL_LABELS: Record<PoolKey, string> = {
  pop: popMessages.popPoolPop,
  center_link_network: popMessages.popPoolCenterLink,
  center_network: popMessages.popPoolCenter,
  pop_software: popMessages.popPoolPopSoftware,
  other: popMessages.popPoolOther,
};

/** The first rule a pool's text breaks ('' is no pool), or null. */
export function poolProblem(text: string): string | null {
  const v = text.trim();
  if (v === '') return null;
  const c = parseCidr(v);
  if (!c) return popMessages.popPoolInvalid;
  if (ipToNumber(c.ip)! < 2 ** 24) return popMessages.popPoolInvalid;
  if (c.mask < POOL_MASK.min || c.mask > POOL_MASK.max) return popMessages.popPoolMaskRange;
  if (!isNetworkAddress(c.ip, c.mask)) return popMessages.popPoolNotNetwork;
  return null;
}

/** One pool: '' for none, else a segment 'a.b.c.0/m' (first octet not 0, mask 16–24, the network address). */
export const poolField = plainText(popMessages.popPoolInvalid)
  .max(18, popMessages.popPoolInvalid)
  .superRefine((v, ctx) => {
    const problem = poolProblem(v);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .default('');

export const ipPool = z.object({ pop: z.string(), center_link_network: z.string(), center_network: z.string(), pop_software: z.string(), other: z.string() });
export type IpPool = z.infer<typeof ipPool>;

export const getIpPool = defineEndpoint({
  path: '/network/ip_address_pool',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object(onNetwork),
  response: ipPool,
});

/** Two pools of a request that overlap, as the message names them. */
export function poolOverlap(pools: Partial<Record<PoolKey, string>>): string | null {
  const set = POOL_KEYS.map((k) => [k, parseCidr(pools[k] ?? '')] as const).filter((e) => e[1] !== undefined);
  for (let i = 0; i < set.length; i++) {
    for (let j = i + 1; j < set.length; j++) {
      const [a, ca] = set[i]!;
      const [b, cb] = set[j]!;
      if (overlaps(ca!, cb!)) return fmt(popMessages.popPoolOverlap, { a: POOL_LABELS[a], b: POOL_LABELS[b] });
    }
  }
  return null;
}

/**
 * Replaces the network's pools (an omitted one is none). With fr_id (the POP resource config's 423
 * path) the POP pool is required and the resource becomes the network's once the pools are saved.
 */
export const editIpPool = defineEndpoint({
  path: '/network/edit_ip_address_pool',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      ...onNetwork,
      pop: poolField,
      center_link_network: poolField,
      center_network: poolField,
      pop_software: poolField,
      other: poolField,
      fr_id: idField(popMessages.popFrNotFound).optional(),
    })
    .superRefine((v, ctx) => {
      if (v.fr_id !== undefined && v.pop === '') ctx.addIssue({ code: 'custom', path: ['pop'], message: popMessages.popPoolPopRequired });
      const overlap = poolOverlap(v);
      if (overlap) ctx.addIssue({ code: 'custom', path: ['pop'], message: overlap });
    }),
  response: noData,
});
