import { z } from 'zod';
import { defineEndpoint, noData, type FileResponse } from './endpoint';
import { requiredString } from './fields';
import { routerMessages } from './messages';
import { networkNumberField } from './network';

/*
 * A member's compiled configuration (issue 12, the network compiler): what the device of that member
 * receives, for support use. Not a call of the spec's console.
 */

export const memberConfigAnswer = z.object({
  /** Grows by one each time this member's configuration really changes; 1 when first compiled. */
  version: z.number().int().positive(),
  /** When this version was made, yyyy-MM-dd HH:mm:ss. */
  update_time: z.string(),
  /** The structured configuration (the device agent's input). */
  config: z.record(z.string(), z.unknown()),
  /** The OpenVPN files by relative path; certificates are named beside them, not inlined. */
  openvpn: z.record(z.string(), z.string()),
});
export type MemberConfigAnswer = z.infer<typeof memberConfigAnswer>;

/** A member by name (an unknown one reads as not found). */
const memberNameField = requiredString(routerMessages.memberNotFound).max(64, routerMessages.memberNotFound);
/** A member in one of the tenant's networks: the member's configuration, its profile. */
const memberInNetworkQuery = z.object({ network_number: networkNumberField, router_name: memberNameField });

/** GET /network/member_config: 204 for a network or member the tenant does not have (or not compiled yet). */
export const getMemberConfig = defineEndpoint({
  path: '/network/member_config',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: memberInNetworkQuery,
  response: memberConfigAnswer,
});

/** A standard OpenVPN client's connection profile (issue 30): everything inline, this member's key only. */
export const OVPN_TYPE = 'application/x-openvpn-profile';
export const ovpnFile: FileResponse = { file: OVPN_TYPE };

/** GET /router/profile: a software member's .ovpn for one of its networks. */
export const getMemberProfile = defineEndpoint({
  path: '/router/profile',
  method: 'GET',
  // It carries the member's private key: those who may edit members, as for its secret.
  access: 'easylink.router.edit',
  networkScoped: true,
  query: memberInNetworkQuery,
  response: ovpnFile,
});

/** POST /router/reissue: new certificates for a software member in all its networks; the old ones are revoked at once. */
export const reissueMemberProfile = defineEndpoint({
  path: '/router/reissue',
  method: 'POST',
  access: 'easylink.router.edit',
  body: z.object({ router_name: memberNameField }),
  response: noData,
});

/** GET /router/profiles: a software member's networks, each with a profile to download, and how it signs in (the console's 连接配置). */
export const memberProfiles = defineEndpoint({
  path: '/router/profiles',
  method: 'GET',
  access: 'easylink.router.edit',
  query: z.object({ router_name: memberNameField }),
  response: z.object({
    /** What the person types as the user name: `name@sign`, or the phone it bound. */
    login: z.string(),
    phone: z.string(),
    networks: z.array(z.object({ network_number: z.string(), network_name: z.string() })),
  }),
});
export type MemberProfiles = z.infer<(typeof memberProfiles)['response']>;
