import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { integerField, plainText, requiredString } from './fields';
import { BM, fmt, networkMessages, networkSegmentsMessages, routerMessages } from './messages';
import { centerLinkView, networkNumberField } from './network';
import { isIpv4, ROUTING_TYPE } from './networkSettings';
import { isNetworkAddress, networkAddress, overlaps } from './segments';

/*
 * The network detail's segment and link settings (spec 2 §2, §3, §4, §5, §7): route prefixes, a
 * center's fixed ports and VPN segments, center interconnect, the twin-center link and point links.
 */

export const SEGMENT_LIMITS = {
  /** Prefix masks (spec 2 §9). */
  prefixMaskMin: 8,
  prefixMaskMax: 32,
  /** ge and le of a prefix are prefix lengths. */
  prefixMatchMax: 32,
  /** Rows of one prefix list (ours; a form list holds at most 100). */
  prefixRowsMax: 100,
  /** Ports (spec 2 §9). */
  portMin: 1025,
  portMax: 65535,
  /** The port inputs take up to 6 characters (spec 2 §5 "static port fields 4 to 6 digits"). */
  portInputMax: 6,
  /** Masks of VPN segments (spec 2 §9). */
  segmentMaskMin: 16,
  segmentMaskMax: 24,
  /** Names in a request (router_name). */
  nameMax: 64,
  /** Centers a point may link to, points in one link_config (ours). */
  linkCentersMax: 64,
  linkPointsMax: 1000,
} as const;

export const PREFIX_PERMISSIONS = ['permit', 'deny'] as const;
export type PrefixPermission = (typeof PREFIX_PERMISSIONS)[number];

const onNetwork = { network_number: networkNumberField };
const networkQuery = z.object(onNetwork);
const memberName = (message: string = networkMessages.networkMemberNotIn) => plainText(message).max(SEGMENT_LIMITS.nameMax, message);

/** '' and null are "not given" (forms send blank fields), anything else must be an integer in [min, max]. */
const optionalInteger = (message: string, min: number, max: number) =>
  z
    .union([z.literal('').transform(() => undefined), z.null().transform(() => undefined), integerField(message, min, max)], { error: message })
    .optional();

/** An optional address: '' or absent for none, else a valid IPv4 address. */
const optionalIp = (message: string) =>
  plainText(message)
    .max(15, message)
    .refine((v) => v === '' || isIpv4(v), message)
    .optional();

// ---- route prefixes ----

/** One prefix row as the console's form checks it field by field (the list adds correction and duplicates). */
export const prefixRowFields = {
  ip: requiredString(networkSegmentsMessages.segPrefixIpRequired).max(15, networkSegmentsMessages.segPrefixIpInvalid).refine(isIpv4, networkSegmentsMessages.segPrefixIpInvalid),
  mask: integerField(networkSegmentsMessages.segPrefixMaskRange, SEGMENT_LIMITS.prefixMaskMin, SEGMENT_LIMITS.prefixMaskMax),
  /** The member whose LAN the prefix is; '' or absent for none. */
  name: memberName().optional(),
  permission: z.union([z.literal('').transform(() => undefined), z.enum(PREFIX_PERMISSIONS)], { error: networkSegmentsMessages.segPrefixPermissionInvalid }).optional(),
  ge: optionalInteger(networkSegmentsMessages.segPrefixMatchRange, 0, SEGMENT_LIMITS.prefixMatchMax),
  le: optionalInteger(networkSegmentsMessages.segPrefixMatchRange, 0, SEGMENT_LIMITS.prefixMatchMax),
};

/** mask < ge ≤ le, le ≥ mask (spec 2 §5), for whichever of ge and le is given. */
export function prefixMatchValid(r: { mask: number; ge?: number | undefined; le?: number | undefined }): boolean {
  if (r.ge !== undefined && r.ge <= r.mask) return false;
  if (r.le !== undefined && (r.le < r.mask || (r.ge !== undefined && r.le < r.ge))) return false;
  return true;
}

/** The network number corrected to its mask (spec 2 §5: the console warns, the server stores the corrected one). */
export const prefixRow = z
  .object(prefixRowFields)
  .refine(prefixMatchValid, { path: ['ge'], message: networkSegmentsMessages.segPrefixMatchRange })
  .transform((r) => ({ ...r, ip: networkAddress(r.ip, r.mask) ?? r.ip, name: r.name ?? '' }));
export type PrefixRowInput = z.output<typeof prefixRow>;

export const prefixKey = (r: { ip: string; mask: number }) => `${networkAddress(r.ip, r.mask) ?? r.ip}/${r.mask}`;

/** A stored prefix (spec 2 §3 Prefix); ge and le null where not set. */
export const networkPrefix = z.object({
  ip: z.string(),
  mask: z.number(),
  name: z.string(),
  permission: z.enum(PREFIX_PERMISSIONS),
  ge: z.number().nullable(),
  le: z.number().nullable(),
});
export type NetworkPrefix = z.infer<typeof networkPrefix>;

export const getPrefix = defineEndpoint({
  path: '/network/prefix',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery,
  response: z.array(networkPrefix),
});

/**
 * The whole prefix list (an empty or absent list clears it), form-encoded prefix[i][ip|mask|name|
 * permission|ge|le] or JSON. The account needs auth.quagga; without auth.quagga_advanced the server
 * stores permit and no ge/le whatever was sent.
 */
export const editPrefix = defineEndpoint({
  path: '/network/edit_prefix',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    ...onNetwork,
    prefix: z
      .array(prefixRow, { error: networkSegmentsMessages.segPrefixIpRequired })
      .max(SEGMENT_LIMITS.prefixRowsMax, fmt(networkSegmentsMessages.segPrefixTooMany, { n: SEGMENT_LIMITS.prefixRowsMax }))
      .refine((rows) => new Set(rows.map(prefixKey)).size === rows.length, networkSegmentsMessages.segPrefixRepeat)
      .optional(),
  }),
  response: noData,
});

// ---- fixed ports ----

export const portField = optionalInteger(networkSegmentsMessages.segPortRange, SEGMENT_LIMITS.portMin, SEGMENT_LIMITS.portMax);
export const publicIpField = optionalIp(networkSegmentsMessages.segPublicIpInvalid);

/** One service's fixed ports as sent; all blank (or absent) clears it. */
const fixedPortInput = z
  .object({ public_ip: publicIpField, public_port: portField, static_port: portField }, { error: BM.validationFailed })
  .nullable()
  .optional();

type FixedPortIn = z.output<typeof fixedPortInput>;

/** The service as stored, or null when nothing of it is filled. */
export function fixedPortOf(s: FixedPortIn): { public_ip: string; public_port: number; static_port: number } | null {
  if (!s || (!s.public_ip && s.public_port === undefined && s.static_port === undefined)) return null;
  return { public_ip: s.public_ip ?? '', public_port: s.public_port ?? 0, static_port: s.static_port ?? 0 };
}

/**
 * A center's fixed ports (spec 2 §5): a service with any field filled needs its public and local port;
 * the two services' local ports differ, and their public IP and port pairs are not the same.
 */
export const setFixedPort = defineEndpoint({
  path: '/network/fixed_port',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({ ...onNetwork, router_name: memberName(routerMessages.memberNotFound).min(1, routerMessages.memberNotFound), router_service: fixedPortInput, software_service: fixedPortInput })
    .superRefine((v, ctx) => {
      const services = [
        ['router_service', fixedPortOf(v.router_service)],
        ['software_service', fixedPortOf(v.software_service)],
      ] as const;
      for (const [key, s] of services) {
        if (!s) continue;
        if (!s.public_port) ctx.addIssue({ code: 'custom', path: [key, 'public_port'], message: fmt(networkSegmentsMessages.segFieldRequired, { label: networkSegmentsMessages.segUiPublicPort }) });
        else if (!s.static_port) ctx.addIssue({ code: 'custom', path: [key, 'static_port'], message: fmt(networkSegmentsMessages.segFieldRequired, { label: networkSegmentsMessages.segUiLocalPort }) });
      }
      const [r, s] = [services[0][1], services[1][1]];
      if (!r || !s || !r.public_port || !r.static_port || !s.public_port || !s.static_port) return;
      if (r.static_port === s.static_port) ctx.addIssue({ code: 'custom', path: ['software_service', 'static_port'], message: networkSegmentsMessages.segLocalPortSame });
      else if (r.public_ip === s.public_ip && r.public_port === s.public_port) ctx.addIssue({ code: 'custom', path: ['software_service', 'public_port'], message: networkSegmentsMessages.segPublicSame });
    }),
  response: noData,
});

// ---- VPN segments ----

/** A segment's fields as the console's form checks them. */
export const segmentFields = {
  gateway: requiredString(networkSegmentsMessages.segGatewayRequired).max(15, networkSegmentsMessages.segGatewayInvalid).refine(isIpv4, networkSegmentsMessages.segGatewayInvalid),
  mask: integerField(networkSegmentsMessages.segMaskRange, SEGMENT_LIMITS.segmentMaskMin, SEGMENT_LIMITS.segmentMaskMax),
};

/** gateway must be the network address of its mask (spec 2 §5 网段格式设置错误). */
export const segmentInput = z
  .object(segmentFields, { error: networkSegmentsMessages.segGatewayRequired })
  .refine((s) => isNetworkAddress(s.gateway, s.mask), { path: ['gateway'], message: networkSegmentsMessages.segGatewayFormat });

/**
 * The software clients' segment of a center: optional (spec 2 §5: of the center gateway form only
 * network_gateway, the hardware clients' segment, is required). Absent, null or a blank gateway is none.
 */
const blankSegment = (v: unknown) => v === undefined || v === null || (typeof v === 'object' && String((v as { gateway?: unknown }).gateway ?? '').trim() === '');
export const optionalSegmentInput = z.preprocess((v) => (blankSegment(v) ? null : v), segmentInput.nullable());

const asSegment = (s: { gateway: string; mask: number }) => ({ ip: s.gateway, mask: s.mask });
export const segmentsOverlap = (a: { gateway: string; mask: number }, b: { gateway: string; mask: number }) => overlaps(asSegment(a), asSegment(b));

/** A center's VPN segments for its hardware and software clients (the center segment dialog). */
export const editCenterGateway = defineEndpoint({
  path: '/network/edit_center_gateway',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({ ...onNetwork, router_name: memberName(routerMessages.memberNotFound).min(1, routerMessages.memberNotFound), router_network: segmentInput, software_network: optionalSegmentInput })
    .refine((v) => v.software_network === null || !segmentsOverlap(v.router_network, v.software_network), { path: ['software_network', 'gateway'], message: networkSegmentsMessages.segSoftwareSame }),
  response: noData,
});

// ---- center interconnect ----

/** Center interconnect on (1) or off (0), after a confirmation in the console; on needs two centers. */
export const enableCenterLink = defineEndpoint({
  path: '/network/enable_center_link',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onNetwork, enable: integerField(networkSegmentsMessages.segEnableInvalid, 0, 1) }),
  response: noData,
});

/** The interconnect segment. */
export const editCenterLinkGateway = defineEndpoint({
  path: '/network/edit_center_link_gateway',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onNetwork, ...segmentFields }).refine((s) => isNetworkAddress(s.gateway, s.mask), { path: ['gateway'], message: networkSegmentsMessages.segGatewayFormat }),
  response: noData,
});

// ---- twin-center link ----

export const getCenterLinkNetwork = defineEndpoint({
  path: '/network/center_link_network',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery,
  response: centerLinkView,
});

type CenterLinkFields = {
  center_router_name?: string | undefined;
  public_ip?: string | undefined;
  public_port?: number | undefined;
  static_port?: number | undefined;
  gateway?: string | undefined;
  mask?: number | undefined;
};

/**
 * Every rule enabling the twin-center link breaks (spec 2 §5), one per field, in the form's order: a
 * form shows them all at once (both ports when a public IP has neither). Disabling (enable 0) checks
 * nothing but the network.
 */
export function centerLinkIssues(v: CenterLinkFields): { path: string; message: string }[] {
  const issues: { path: string; message: string }[] = [];
  if (!v.center_router_name) issues.push({ path: 'center_router_name', message: networkSegmentsMessages.segServerRequired });
  if (v.public_ip) {
    if (v.public_port === undefined) issues.push({ path: 'public_port', message: networkSegmentsMessages.segPublicPortRequired });
    if (v.static_port === undefined) issues.push({ path: 'static_port', message: networkSegmentsMessages.segLocalPortRequired });
  } else if (!v.gateway) issues.push({ path: 'gateway', message: networkSegmentsMessages.segLinkGatewayRequired });
  if (v.gateway) {
    if (v.mask === undefined) issues.push({ path: 'mask', message: networkSegmentsMessages.segMaskRange });
    else if (!isNetworkAddress(v.gateway, v.mask)) issues.push({ path: 'gateway', message: networkSegmentsMessages.segGatewayFormat });
  }
  return issues;
}

/** The first rule enabling the twin-center link breaks (the server's answer), or undefined. */
export const centerLinkIssue = (v: CenterLinkFields) => centerLinkIssues(v)[0];

/**
 * enable 1 turns the link on with these settings; line_mode, when given with it, sets the network's
 * routing type in the same change (1 dual primary; 2 main-backup, the server center the main line and
 * the other twin center the backup). enable 0 turns it off and ignores the rest.
 */
export const setCenterLink = defineEndpoint({
  path: '/network/center_link',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      ...onNetwork,
      enable: integerField(networkSegmentsMessages.segEnableInvalid, 0, 1),
      center_router_name: memberName(networkSegmentsMessages.segServerRequired).optional(),
      gateway: optionalIp(networkSegmentsMessages.segGatewayInvalid),
      mask: optionalInteger(networkSegmentsMessages.segMaskRange, SEGMENT_LIMITS.segmentMaskMin, SEGMENT_LIMITS.segmentMaskMax),
      public_ip: publicIpField,
      public_port: portField,
      static_port: portField,
      line_mode: optionalInteger(networkSegmentsMessages.segLineModeInvalid, ROUTING_TYPE.dual, ROUTING_TYPE.mainBackup),
    })
    .superRefine((v, ctx) => {
      if (v.enable !== 1) return;
      for (const issue of centerLinkIssues(v)) ctx.addIssue({ code: 'custom', path: [issue.path], message: issue.message });
    }),
  response: noData,
});

// ---- point links ----

/** Each point of the network by name and the centers it links to (every center unless set otherwise). */
export const pointLinkConfig = z.object({ link_config: z.record(z.string(), z.array(z.string())) });
export type PointLinkConfig = z.infer<typeof pointLinkConfig>;

export const getPointLink = defineEndpoint({
  path: '/network/point_link',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery,
  response: pointLinkConfig,
});

/**
 * The centers each named point links to; a point left out links to every center. A list may not be
 * empty; names are points and centers of the network (checked by the server).
 */
export const setPointLink = defineEndpoint({
  path: '/network/point_link',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    ...onNetwork,
    link_config: z
      .record(
        memberName(networkSegmentsMessages.segPointLinkNotPoint),
        z
          .array(memberName(networkSegmentsMessages.segPointLinkNotCenter).min(1, networkSegmentsMessages.segPointLinkNotCenter), { error: networkSegmentsMessages.segPointLinkCentersRequired })
          .min(1, networkSegmentsMessages.segPointLinkCentersRequired)
          .max(SEGMENT_LIMITS.linkCentersMax, networkSegmentsMessages.segPointLinkNotCenter),
        { error: BM.validationFailed },
      )
      .refine((m) => Object.keys(m).length <= SEGMENT_LIMITS.linkPointsMax, BM.validationFailed)
      .optional(),
  }),
  response: noData,
});
