import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { integerField, plainText, requiredString } from './fields';
import { LIMITS } from './limits';
import { fmt, networkMessages, routerMessages } from './messages';
import { networkNumberField } from './network';

/*
 * The settings dialogs of the network detail (spec 2 §2, §4, §5, §7): line main/backup (routing),
 * DNS, default route, ciphers, dial mode, dynamic routing (quagga) and the member commands (kick
 * offline, restart service, resend config) that the device gateway delivers.
 */

/** Routing type (spec 2 §4): 1 dual primary (load balanced), 2 main-backup. */
export const ROUTING_TYPE = { dual: 1, mainBackup: 2 } as const;
/** network_member.routing: 1 main line, 2 backup line. */
export const ROUTING_LINE = { main: 1, backup: 2 } as const;
/** Default route of a member (spec 2 §3): 0 off, 1 advertise, 2 receive. */
export const DEFAULT_ROUTE = { off: 0, advertise: 1, receive: 2 } as const;
/** ncp_ciphers (spec 2 §3): default, or sm (the national crypto standard). */
export const NCP_CIPHERS = ['default', 'sm'] as const;
export type NcpCiphers = (typeof NCP_CIPHERS)[number];
/** Dial mode of a member (spec 2 §3): 1 default, 2 center first, 3 POP first. */
export const DIAL_MODE = { default: 1, centerFirst: 2, popFirst: 3 } as const;
/** Commands queued for a member's device (delivered by the device gateway). */
export const MEMBER_COMMANDS = ['kill', 'restart', 'resend_config'] as const;
export type MemberCommand = (typeof MEMBER_COMMANDS)[number];

/** Four octets 0-255 without leading zeros, the first not 0 (spec 2 §5). */
const OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const FIRST_OCTET = '(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]\\d|[1-9])';
export const IPV4_PATTERN = new RegExp(`^${FIRST_OCTET}(\\.${OCTET}){3}$`);
export const isIpv4 = (v: string) => IPV4_PATTERN.test(v);

const routerName = (required: string = routerMessages.memberNotFound) => requiredString(required).max(64, routerMessages.memberNotFound);
const networkQuery = z.object({ network_number: networkNumberField });
const onNetwork = { network_number: networkNumberField };
const onMember = { network_number: networkNumberField, router_name: routerName() };

// ---- line main/backup ----

export const networkRouting = z.object({
  type: z.number(),
  /** The main line's center in main-backup mode; '' in dual primary mode. */
  main_router: z.string(),
  /** The backup line's center in main-backup mode; '' in dual primary mode. */
  secondary_router: z.string(),
});
export type NetworkRouting = z.infer<typeof networkRouting>;

export const getRouting = defineEndpoint({
  path: '/network/routing',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: networkQuery,
  response: networkRouting,
});

/** Main-backup mode needs both centers, and two different ones. */
export const editRouting = defineEndpoint({
  path: '/network/edit_routing',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      ...onNetwork,
      type: integerField(networkMessages.networkRoutingTypeInvalid, ROUTING_TYPE.dual, ROUTING_TYPE.mainBackup),
      main_router: plainText(networkMessages.networkRoutingMainRequired).max(64, routerMessages.memberNotFound).optional(),
      secondary_router: plainText(networkMessages.networkRoutingBackupRequired).max(64, routerMessages.memberNotFound).optional(),
    })
    .superRefine((v, ctx) => {
      if (v.type !== ROUTING_TYPE.mainBackup) return;
      if (!v.main_router) ctx.addIssue({ code: 'custom', path: ['main_router'], message: networkMessages.networkRoutingMainRequired });
      else if (!v.secondary_router) ctx.addIssue({ code: 'custom', path: ['secondary_router'], message: networkMessages.networkRoutingBackupRequired });
      else if (v.main_router.toLowerCase() === v.secondary_router.toLowerCase()) {
        ctx.addIssue({ code: 'custom', path: ['secondary_router'], message: networkMessages.networkRoutingSame });
      }
    }),
  response: noData,
});

// ---- DNS ----

/** One DNS row: required, a valid IPv4 address. */
export const dnsRowField = requiredString(networkMessages.networkDnsRequired).refine(isIpv4, networkMessages.networkDnsInvalid);

/**
 * The whole DNS list (an empty list clears it); the plan's dns_quantity bounds it on the server,
 * LIMITS.dnsRowsMax any request.
 */
export const setDns = defineEndpoint({
  path: '/network/dns',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({
    ...onNetwork,
    dns: z
      .array(dnsRowField, { error: networkMessages.networkDnsRequired })
      .max(LIMITS.dnsRowsMax, fmt(networkMessages.networkDnsLimit, { n: LIMITS.dnsRowsMax }))
      .refine((rows) => new Set(rows).size === rows.length, networkMessages.networkDnsRepeat),
  }),
  response: noData,
});

// ---- default route ----

/** The metric a request carries, when it is one of LIMITS.defaultRouteMetrics (a number or its digits). */
export function metricOf(v: unknown): number | undefined {
  const parsed = integerField(networkMessages.networkRouteMetricInvalid, 0, LIMITS.maxId).safeParse(v);
  return parsed.success && (LIMITS.defaultRouteMetrics as readonly number[]).includes(parsed.data) ? parsed.data : undefined;
}

/** The priority (1 to 5) of a default-route metric; 0 for a metric that is none of LIMITS.defaultRouteMetrics. */
export const priorityOf = (metric: number) => (LIMITS.defaultRouteMetrics as readonly number[]).indexOf(metric) + 1;

/** metric (one of LIMITS.defaultRouteMetrics) only for advertise, ignored otherwise; the account needs auth.default_route. */
export const setDefaultRoute = defineEndpoint({
  path: '/network/default_route',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      ...onMember,
      model: integerField(networkMessages.networkRouteModelInvalid, DEFAULT_ROUTE.off, DEFAULT_ROUTE.receive),
      metric: z.unknown().optional(),
    })
    .refine((v) => v.model !== DEFAULT_ROUTE.advertise || metricOf(v.metric) !== undefined, { path: ['metric'], message: networkMessages.networkRouteMetricInvalid }),
  response: noData,
});

// ---- ciphers, dial mode ----

export const setCiphers = defineEndpoint({
  path: '/network/ciphers',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onNetwork, ncp_ciphers: z.enum(NCP_CIPHERS, { error: networkMessages.networkCiphersInvalid }) }),
  response: noData,
});

export const setSoftwareMode = defineEndpoint({
  path: '/network/software_mode',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onMember, mode: integerField(networkMessages.networkDialModeInvalid, DIAL_MODE.default, DIAL_MODE.popFirst) }),
  response: noData,
});

// ---- dynamic routing (the account needs auth.quagga) ----

export const setQuagga = defineEndpoint({
  path: '/network/quagga',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onMember, enable: integerField(networkMessages.networkQuaggaInvalid, 0, 1) }),
  response: noData,
});

export const enableQuagga = defineEndpoint({
  path: '/network/quagga_enable',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object(onNetwork),
  response: noData,
});

export const disableQuagga = defineEndpoint({
  path: '/network/quagga_disable',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object(onNetwork),
  response: noData,
});

// ---- member commands ----

/** Kicks an online member offline. */
export const killUser = defineEndpoint({
  path: '/network/kill_user',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object(onMember),
  response: noData,
});

/** Restarts an online member's VPN service. */
export const resetRespawn = defineEndpoint({
  path: '/network/reset_respawn',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object(onMember),
  response: noData,
});

/** Sends the network's config again: to one member, or to every member without router_name. */
export const resendConfig = defineEndpoint({
  path: '/network/re_send_config',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z.object({ ...onNetwork, router_name: plainText(routerMessages.memberNotFound).max(64, routerMessages.memberNotFound).optional() }),
  response: noData,
});
