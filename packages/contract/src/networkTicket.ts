import { z } from 'zod';
import { defineEndpoint, noData } from './endpoint';
import { dateField, dateRangeInOrder, integerField, pageQuery, plainText, requiredString } from './fields';
import { fmt, networkMessages, networkTicketMessages } from './messages';
import { networkNumberField } from './network';
import { POP_REGION_VALUES, TICKET_TYPE_ACCESS_POP } from './popRegions';

/*
 * Network work orders and the access-POP ticket wizard (spec 2 §2, §3, §4, §7, §9). The operator
 * moves an order 1 → 2 → 3 or to 4; the tenant creates (status 1), deletes (1 and 4) and cancels
 * (2 and 3 → 4).
 */

/** The constants of the wizard (spec 2 §9; the validity choices are ours). */
export const TICKET_LIMITS = {
  /** Bandwidth choices in Mbps; the slider's min and max are the first and the last. */
  bandwidths: [1, 50, 100, 150, 200],
  /** Validity choices in years. */
  years: [1, 2, 3],
  /** The wizard submits this bandwidth whatever the slider shows (spec 2 §2). */
  submittedBandwidth: 1,
  /** After a submitted ticket the wizard goes back after this long (spec 2 §9). */
  redirectMs: 500,
  numberMax: 32,
  routerNameMax: 64,
  /** Members one region may list (a network has far fewer). */
  membersPerRegionMax: 1000,
} as const;

export const ticketNumberField = requiredString(networkTicketMessages.ticketNotFound).max(TICKET_LIMITS.numberMax, networkTicketMessages.ticketNotFound);

export const ticketAttributes = z.object({
  /** Mbps */
  bandwidth: z.number(),
  /** Region values of POP_REGIONS. */
  pop: z.array(z.string()),
  /** Years */
  expired_time: z.number(),
  /** Region value → router_names. */
  pop_conf: z.record(z.string(), z.array(z.string())),
});
export type TicketAttributes = z.infer<typeof ticketAttributes>;

export const ticketItem = z.object({
  network_ticket_number: z.string(),
  network_number: z.string(),
  network_ticket_type: z.number(),
  network_ticket_status: z.number(),
  service_name: z.string(),
  create_time: z.string(),
  /** Only for a completed order (status 3), '' otherwise. */
  complete_time: z.string(),
  attributes: ticketAttributes,
});
export type TicketItem = z.infer<typeof ticketItem>;

/** GET /network/ticket_lists: search by ticket number, filters network_number and create_time days; newest first. */
export const listTickets = defineEndpoint({
  path: '/network/ticket_lists',
  method: 'GET',
  access: 'user',
  query: pageQuery
    .extend({
      network_number: plainText(networkMessages.networkNotFound).max(64, networkMessages.networkNotFound).optional(),
      start_time: dateField(networkTicketMessages.ticketDateInvalid).optional(),
      end_time: dateField(networkTicketMessages.ticketDateInvalid).optional(),
    })
    .refine(dateRangeInOrder, { path: ['end_time'], message: networkTicketMessages.ticketRangeInvalid }),
  response: z.array(ticketItem),
  paged: true,
});

export const ticketView = defineEndpoint({
  path: '/network/ticket_view',
  method: 'GET',
  access: 'user',
  query: z.object({ network_ticket_number: ticketNumberField }),
  response: ticketItem,
});

export const ticketConfigData = z.object({
  ticket: z.object({
    bandwidth: z.object({ min: z.number(), max: z.number() }),
    expired_time: z.array(z.object({ value: z.number() })),
    pop: z.array(z.object({ value: z.string(), name: z.string() })),
  }),
  member: z.array(z.object({ router_name: z.string() })),
});
export type TicketConfig = z.infer<typeof ticketConfigData>;

const ticketTypeField = integerField(networkTicketMessages.ticketTypeInvalid, TICKET_TYPE_ACCESS_POP, TICKET_TYPE_ACCESS_POP);

/** GET /network/ticket_config: the wizard's choices and the network's members. */
export const ticketConfig = defineEndpoint({
  path: '/network/ticket_config',
  method: 'GET',
  access: 'user',
  networkScoped: true,
  query: z.object({ type: ticketTypeField.default(TICKET_TYPE_ACCESS_POP), network_number: networkNumberField }),
  response: ticketConfigData,
});

const regionField = z.enum(POP_REGION_VALUES, { error: networkTicketMessages.ticketPopInvalid });
const routerNameField = requiredString(networkMessages.networkMemberNotIn).max(TICKET_LIMITS.routerNameMax, networkMessages.networkMemberNotIn);

/** Names each member once across the regions (without regard to case); the first repeated name, if any. */
export function repeatedMember(popConf: Record<string, readonly string[]>): string | undefined {
  const seen = new Set<string>();
  for (const names of Object.values(popConf)) {
    for (const name of names) {
      const key = name.toLowerCase();
      if (seen.has(key)) return name;
      seen.add(key);
    }
  }
  return undefined;
}

/**
 * POST /network/ticket: regions (at least one, each once), validity in years and bandwidth among
 * TICKET_LIMITS' choices, and pop_conf assigning members to chosen regions, each member to one region
 * at most. Membership of the network is checked by the server.
 */
export const createTicket = defineEndpoint({
  path: '/network/ticket',
  method: 'POST',
  access: 'easylink.network.edit',
  networkScoped: true,
  body: z
    .object({
      network_number: networkNumberField,
      network_ticket_type: ticketTypeField.default(TICKET_TYPE_ACCESS_POP),
      ticket: z.object(
        {
          pop: z
            .array(regionField, { error: networkTicketMessages.ticketPopRequired })
            .min(1, networkTicketMessages.ticketPopRequired)
            .refine((v) => new Set(v).size === v.length, networkTicketMessages.ticketPopInvalid),
          expired_time: integerField(networkTicketMessages.ticketExpiredInvalid, 0, 1000).refine((v) => (TICKET_LIMITS.years as readonly number[]).includes(v), networkTicketMessages.ticketExpiredInvalid),
          bandwidth: integerField(networkTicketMessages.ticketBandwidthInvalid, 0, 100_000).refine(
            (v) => (TICKET_LIMITS.bandwidths as readonly number[]).includes(v),
            networkTicketMessages.ticketBandwidthInvalid,
          ),
        },
        { error: networkTicketMessages.ticketPopRequired },
      ),
      pop_conf: z
        .partialRecord(regionField, z.array(routerNameField, { error: networkMessages.networkMemberNotIn }).max(TICKET_LIMITS.membersPerRegionMax, networkMessages.networkMemberNotIn), {
          error: networkTicketMessages.ticketConfRegionInvalid,
        })
        .default({}),
    })
    .superRefine((v, ctx) => {
      const chosen = new Set<string>(v.ticket.pop);
      if (Object.keys(v.pop_conf).some((region) => !chosen.has(region))) {
        ctx.addIssue({ code: 'custom', path: ['pop_conf'], message: networkTicketMessages.ticketConfRegionInvalid });
        return;
      }
      const twice = repeatedMember(v.pop_conf as Record<string, string[]>);
      if (twice !== undefined) ctx.addIssue({ code: 'custom', path: ['pop_conf'], message: fmt(networkTicketMessages.ticketConfMemberTwice, { name: twice }) });
    }),
  response: z.object({ network_ticket_number: z.string() }),
});

const onTicket = z.object({ network_ticket_number: ticketNumberField });

/** POST /network/ticket_delete: a pending (1) or cancelled (4) order. */
export const deleteTicket = defineEndpoint({
  path: '/network/ticket_delete',
  method: 'POST',
  access: 'easylink.network.edit',
  body: onTicket,
  response: noData,
});

/** POST /network/ticket_cancel: an order in progress (2) or completed (3) becomes cancelled (4). */
export const cancelTicket = defineEndpoint({
  path: '/network/ticket_cancel',
  method: 'POST',
  access: 'easylink.network.edit',
  body: onTicket,
  response: noData,
});
