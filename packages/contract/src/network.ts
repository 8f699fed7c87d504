import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { integerField, pageQuery, requiredString } from './fields';
import { LIMITS } from './limits';
import { BM, fmt, networkMessages, routerMessages } from './messages';
import { routerNameField } from './router';

export const MEMBER_TYPES = ['center', 'point'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];
export const memberTypeField = z.enum(MEMBER_TYPES, { error: networkMessages.networkMemberTypeInvalid });

/** network_type of spec 2 §2: 1 hub (center-point) network, 2 point-to-point, otherwise POP. */
export const NETWORK_TYPE = { hub: 1, p2p: 2 } as const;

/** network_status (spec 2 §4): computed, 0 while the tenant's networked members exceed the plan. */
export const NETWORK_STATUS = { disabled: 0, usable: 1 } as const;

/** network_service (spec 2 §3): 1 basic edition (network_level 1), otherwise standard. */
export const NETWORK_SERVICE = { basic: 1, standard: 2 } as const;

/** What a network and its members carry until the detail's dialogs change it (spec 2 §3, §9). */
export const NETWORK_DEFAULTS = {
  ncpCiphers: 'default',
  /** Dial mode: 1 default, 2 center first, 3 POP first. */
  mode: 1,
  /** Priority of a member's POP areas. */
  ovPriority: 3,
  /** Twin-center link offered from this many centers. */
  centerLinkMinCenters: 2,
} as const;

export const networkNumberField = requiredString(networkMessages.networkNotFound).max(LIMITS.networkNumberMax, networkMessages.networkNotFound);
export const networkNameField = requiredString(networkMessages.networkNameRequired).max(LIMITS.networkNameMax, networkMessages.networkNameTooLong);

/** router_names; at most the pickers' size (LIMITS.memberPickerMax) per position. */
const memberNames = z
  .array(requiredString(networkMessages.networkMembersRequired).max(64, networkMessages.networkMembersRequired), { error: networkMessages.networkMembersRequired })
  .max(LIMITS.memberPickerMax, fmt(networkMessages.networkQuotaFull, { n: LIMITS.memberPickerMax }))
  .default([]);

/** The quota of spec 2 §3 (network_config). */
export const networkQuota = z.object({
  /** Distinct members of the tenant that are in at least one network. */
  network_router_use: z.number(),
  network_router_count: z.number(),
  network_level: z.number(),
  network_center_count: z.number(),
});
export type NetworkQuota = z.infer<typeof networkQuota>;

export const networkItem = z.object({
  network_number: z.string(),
  network_name: z.string(),
  network_type: z.number(),
  member_count: z.number(),
  /** The POP resource's name, '' without one. */
  fr_name: z.string(),
  /** 1 usable; 0 when the tenant's networked members exceed the plan. */
  network_status: z.number(),
  create_time: z.string(),
});
export type NetworkItem = z.infer<typeof networkItem>;

/** GET /network/lists: search matches the name or the number; a role with networks sees only those. */
export const listNetworks = defineEndpoint({
  path: '/network/lists',
  method: 'GET',
  access: 'user',
  query: pageQuery,
  response: z.array(networkItem),
  paged: true,
});

export const networkConfig = defineEndpoint({
  path: '/network/config',
  method: 'GET',
  access: 'user',
  response: networkQuota,
});

/** GET /network/select: every network the caller may see, for selects (roles, LDAP). */
export const selectNetworks = defineEndpoint({
  path: '/network/select',
  method: 'GET',
  access: 'user',
  response: z.array(z.object({ network_number: z.string(), network_name: z.string() })),
});

/** Centers and points by router_name; at least one member; software members only as points. */
const membersBody = {
  network_name: networkNameField,
  center: memberNames,
  point: memberNames,
};
const atLeastOne = (v: { center: string[]; point: string[] }) => v.center.length + v.point.length > 0;

export const createNetwork = defineEndpoint({
  path: '/network/create',
  method: 'POST',
  access: 'easylink.network.create',
  body: z.object(membersBody).refine(atLeastOne, { path: ['center'], message: networkMessages.networkMembersRequired }),
  response: z.object({ network_number: z.string() }),
});

/** POST /network/edit: the manage-members page saves the whole list. */
export const editNetwork = defineEndpoint({
  path: '/network/edit',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ network_number: networkNumberField, ...membersBody }).refine(atLeastOne, { path: ['center'], message: networkMessages.networkMembersRequired }),
  response: noData,
});

export const renameNetwork = defineEndpoint({
  path: '/network/name',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ network_number: networkNumberField, network_name: networkNameField }),
  response: noData,
});

export const deleteNetwork = defineEndpoint({
  path: '/network/delete',
  method: 'POST',
  access: 'easylink.network.delete',
  networkScoped: true,
  body: z.object({ network_number: networkNumberField }),
  response: noData,
});

/** A center's fixed ports for one service (spec 2 §3 Member.fixed_port). */
export const fixedPortService = z.object({ public_ip: z.string(), public_port: z.number(), static_port: z.number() });
export type FixedPortService = z.infer<typeof fixedPortService>;
/** A VPN segment: its network address and mask (spec 2 §3 Member.gateway). */
export const segmentValue = z.object({ gateway: z.string(), mask: z.number() });
export type SegmentValue = z.infer<typeof segmentValue>;
/** A center's VPN segment as a member carries it (spec 2 §3 Member.gateway): with the center's note. */
export const memberSegment = segmentValue.extend({ center_router_name_note: z.string() });
export type MemberSegment = z.infer<typeof memberSegment>;
/** The twin-center link (spec 2 §3 network_center_link_network); '' and 0 where unset. */
export const centerLinkNetwork = z.object({
  gateway: z.string(),
  mask: z.number(),
  public_ip: z.string(),
  public_port: z.number(),
  static_port: z.number(),
  center_router_name: z.string(),
});
export type CenterLinkNetwork = z.infer<typeof centerLinkNetwork>;
/**
 * The twin-center link as the detail and its dialog read it: the link, and its line mode (spec 2 §4:
 * 1 dual primary, 2 main-backup), which is the network's routing type (线路主备) seen from the link,
 * not a second setting.
 */
export const centerLinkView = centerLinkNetwork.extend({ line_mode: z.number() });
export type CenterLinkView = z.infer<typeof centerLinkView>;

/** A member of a network (spec 2 §3). */
export const networkMember = z.object({
  router_name: z.string(),
  note: z.string(),
  member_type: z.enum(MEMBER_TYPES),
  router_type: z.number(),
  online: z.number(),
  /** 1 main line, otherwise backup. */
  routing: z.number(),
  ov_id: z.object({ main: z.number(), backup: z.number(), main_name: z.string(), backup_name: z.string(), priority: z.number() }),
  default_route: z.number(),
  metric: z.number(),
  quagga: z.number(),
  mode: z.number(),
  /** A center's fixed ports for its hardware and software services; null where unset. */
  fixed_port: z.object({ router: fixedPortService.nullable(), software: fixedPortService.nullable() }),
  /** A center's VPN segments for hardware and software clients; null where unset. */
  gateway: z.object({ router: memberSegment.nullable(), software: memberSegment.nullable() }),
});
export type NetworkMember = z.infer<typeof networkMember>;

/** A point's link to a center; vpn_online 0 until the device gateway reports the link up. */
export const networkLink = z.object({
  router_name: z.string(),
  router_name_note: z.string(),
  center_router_name: z.string(),
  center_router_name_note: z.string(),
  vpn_online: z.number(),
  vpn_ip: z.string(),
  vpn_online_time: z.string(),
  /** How the point's device last said the link runs (issue 30): straight to the center, or through a POP area's relay; absent when it did not say. */
  path: z.enum(['center', 'pop']).optional(),
  pop_area: z.string().optional(),
});
export type NetworkLink = z.infer<typeof networkLink>;

export const networkDetail = z.object({
  network_number: z.string(),
  network_name: z.string(),
  network_status: z.number(),
  /** 1 basic, otherwise standard. */
  network_service: z.number(),
  network_type: z.number(),
  network_level: z.number(),
  member_count: z.number(),
  /** Every member, or with paging (networkDetailPaging) the page asked for. */
  member: z.array(networkMember),
  /** Every center, whatever the paging: the menu, the lines and the center pickers need them (issue 34). */
  centers: z.array(networkMember),
  /** Every link, or with paging the page asked for (or the links of the members' page). */
  link: z.array(networkLink),
  /** How many links the network has in all. */
  link_count: z.number(),
  network_config: networkQuota.extend({ dns_quantity: z.number() }),
  ncp_ciphers: z.string(),
  network_dns: z.array(z.string()),
  network_fr: z.object({ network_fr_id: z.number(), shortname: z.string() }).nullable(),
  mode: z.number(),
  network_center_link: z.number(),
  network_center_link_show: z.number(),
  network_center_link_network: centerLinkView,
  /** Center interconnect: on (1) or off (0), and its segment (null when unset). */
  network_interconnect: z.object({ enable: z.number(), segment: segmentValue.nullable() }),
  create_time: z.string(),
});
export type NetworkDetail = z.infer<typeof networkDetail>;

const networkQuery = z.object({ network_number: networkNumberField });

/**
 * Paging of a network's detail and status (issue 34: a network of 5,000 members must not be sent whole).
 * Without member_page and link_page the answer holds every member and link, as spec 2 §2 has it. With
 * member_page, `member` is that page (centers first, then each position in the order it joined); with
 * link_page, `link` is that page of every link, and without it the links of the members' page.
 */
export const networkDetailPaging = z.object({
  member_page: integerField(BM.pageInvalid, 1, LIMITS.maxId).optional(),
  link_page: integerField(BM.pageInvalid, 1, LIMITS.maxId).optional(),
  page_size: integerField(BM.limitInvalid, 1, LIMITS.maxPageLimit).optional(),
});
export type NetworkDetailPaging = z.infer<typeof networkDetailPaging>;

/** GET /network/info: 204 when the tenant has no such network. */
export const networkInfo = defineEndpoint({
  path: '/network/info',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery.extend(networkDetailPaging.shape),
  response: networkDetail,
});

/** What the device gateway last knew of a member's device in a network (issue 13). */
export const memberDeviceState = z.object({
  /** The member's current config version (0 before the network was compiled). */
  config_version: z.number(),
  /** The version the device said it applied (0: none yet), and its error when it failed. */
  applied_version: z.number(),
  applied_error: z.string(),
  /** The latest command for the member in this network: queued → sent → done | failed. */
  command: z.object({ kind: z.string(), state: z.string(), error: z.string(), update_time: z.string() }).nullable(),
});
export type MemberDeviceState = z.infer<typeof memberDeviceState>;

/**
 * GET /network/status, polled every 10 s by the detail page. With router_name, only that member's view
 * (the router detail's network panel, issue 34): its links (paged by link_page), their count and how
 * many are up, its own flag and device state; nothing when it is not a member of the network.
 */
export const networkStatus = defineEndpoint({
  path: '/network/status',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery.extend(networkDetailPaging.shape).extend({ router_name: routerNameField.optional() }),
  response: z.object({
    network_status: z.number(),
    /** Every link, or with paging the page asked for (networkDetailPaging). */
    link: z.array(networkLink),
    link_count: z.number(),
    /** With router_name: how many of the member's links are up. */
    link_up: z.number().optional(),
    /** Every member's flag, or with paging the members' page and the centers. */
    online: z.record(z.string(), z.number()),
    /** By router_name, for members that have a config or a command. */
    device: z.record(z.string(), memberDeviceState),
  }),
});

/** GET /network/member: the network's members, or only its centers with member_type=center. */
export const networkMembers = defineEndpoint({
  path: '/network/member',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery.extend({ member_type: memberTypeField.optional() }),
  response: z.array(networkMember),
});

export const addNetworkMember = defineEndpoint({
  path: '/network/add_member',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ network_number: networkNumberField, router_name: requiredString(networkMessages.networkMembersRequired).max(64, networkMessages.networkMembersRequired), member_type: memberTypeField }),
  response: noData,
});

export const removeNetworkMember = defineEndpoint({
  path: '/network/remove_member',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ network_number: networkNumberField, router_name: requiredString(routerMessages.memberNotFound).max(64, routerMessages.memberNotFound) }),
  response: noData,
});
