import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { requiredString } from './fields';
import { M } from './messages';
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

/** GET /network/member_config: 204 for a network or member the tenant does not have (or not compiled yet). */
export const getMemberConfig = defineEndpoint({
  path: '/network/member_config',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({
    network_number: networkNumberField,
    router_name: requiredString(M.memberNotFound).max(64, M.memberNotFound),
  }),
  response: memberConfigAnswer,
});
