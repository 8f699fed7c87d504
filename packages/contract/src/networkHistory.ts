import { z } from 'zod';
import { changeEffect } from './changeEffect';
import { defineEndpoint } from './endpoint';
import { integerField, pageQuery } from './fields';
import { LIMITS } from './limits';
import { networkHistoryMessages } from './messages';
import { networkNumberField } from './network';

/*
 * Network configuration history and rollback (issue 18). Every change of a network's settings or
 * membership writes a version (1, 2, … per network) with who made it, a summary and the snapshot of
 * everything the network detail and its dialogs edit; any two versions compare field by field, and a
 * rollback restores a version through the same calls the dialogs make (it is a version itself).
 */

/** Who made a version: the main account, a sub-account, a personal API token, or the system (events, operators). */
export const HISTORY_WHO = ['main', 'ram', 'token', 'system'] as const;
export type HistoryWho = (typeof HISTORY_WHO)[number];

/** Version 0 in a comparison is the network as it is now. */
export const CURRENT_VERSION = 0;

/** A member of a network in a snapshot; JSON settings as the detail shows them. */
export const snapshotMember = z.object({
  router_name: z.string(),
  member_type: z.string(),
  routing: z.number(),
  default_route: z.number(),
  metric: z.number(),
  quagga: z.number(),
  mode: z.number(),
  ov_main: z.number(),
  ov_backup: z.number(),
  gateway: z.unknown(),
  fixed_port: z.unknown(),
  /** The centers a point links to by name; null for every center. */
  link_centers: z.array(z.string()).nullable(),
});
export type SnapshotMember = z.infer<typeof snapshotMember>;

/** Everything of a network a rollback restores. */
export const networkSnapshot = z.object({
  network_name: z.string(),
  network_type: z.number(),
  routing_type: z.number(),
  /** In main-backup mode the backup line's center by name; '' otherwise. */
  routing_secondary: z.string(),
  dns: z.array(z.string()),
  ncp_ciphers: z.string(),
  mode: z.number(),
  network_fr_id: z.number().nullable(),
  ip_pool: z.unknown(),
  center_link: z.number(),
  center_link_network: z.unknown(),
  interconnect: z.number(),
  interconnect_network: z.unknown(),
  prefixes: z.array(z.object({ ip: z.string(), mask: z.number(), name: z.string(), permission: z.string(), ge: z.number().nullable(), le: z.number().nullable() })),
  /** Centers first, each position in the order its members joined. */
  members: z.array(snapshotMember),
});
export type NetworkSnapshot = z.infer<typeof networkSnapshot>;

export const networkVersionItem = z.object({
  version: z.number(),
  create_time: z.string(),
  who_kind: z.enum(HISTORY_WHO),
  /** Ready to show: 主账号 name, 子账号 name, API 令牌 name, 系统. */
  who: z.string(),
  summary: z.string(),
  /** What the save did (issue 36): null for a version written before effects were kept, or by the system. */
  effect: changeEffect.nullable(),
});
export type NetworkVersionItem = z.infer<typeof networkVersionItem>;

const versionField = (min: number) => integerField(networkHistoryMessages.histVersionInvalid, min, LIMITS.maxId);
const onNetwork = { network_number: networkNumberField };

/** GET: a network's versions, newest first, 10 a page. */
export const listNetworkVersions = defineEndpoint({
  path: '/network/history',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: pageQuery.omit({ search: true }).extend(onNetwork),
  response: z.array(networkVersionItem),
  paged: true,
});

/** GET: one version with its snapshot. */
export const getNetworkVersion = defineEndpoint({
  path: '/network/history/version',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ ...onNetwork, version: versionField(1) }),
  response: networkVersionItem.extend({ snapshot: networkSnapshot }),
});

/** One compared field: labels and values ready to show. */
export const versionDiffRow = z.object({
  /** 'network.dns', 'member.<name>.quagga', 'member.<name>'. */
  key: z.string(),
  label: z.string(),
  a: z.string(),
  b: z.string(),
  changed: z.boolean(),
});
export type VersionDiffRow = z.infer<typeof versionDiffRow>;

export const versionDiff = z.object({
  a: z.number(),
  b: z.number(),
  rows: z.array(versionDiffRow),
  members: z.object({ added: z.array(z.string()), removed: z.array(z.string()), changed: z.array(z.string()) }),
});
export type VersionDiff = z.infer<typeof versionDiff>;

/** GET: versions a and b field by field (0 is the network as it is now); every field, changed ones marked. */
export const compareNetworkVersions = defineEndpoint({
  path: '/network/history/compare',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ ...onNetwork, a: versionField(0), b: versionField(0) }),
  response: versionDiff,
});

/** POST: restores a version through the dialogs' own calls; refused with the reason, changing nothing. */
export const rollbackNetwork = defineEndpoint({
  path: '/network/history/rollback',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onNetwork, version: versionField(1) }),
  response: z.object({ version: z.number() }),
});
