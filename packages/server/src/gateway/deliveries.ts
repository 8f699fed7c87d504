import { z } from 'zod';
import type { Ctx } from '../core/context';
import { DEVICE_CHANNELS } from '../domain/deviceChannels';

/**
 * What one instance asks of the instance holding a member's session, through pub/sub (every instance
 * gets every delivery and acts on the sessions it holds). Lost deliveries are caught up on reconnect:
 * the welcome carries the configs the device lacks and the commands still queued or unacknowledged.
 */
const ids = z.array(z.number().int().positive());
export const delivery = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('config'), network_id: z.number().int().positive(), member_ids: ids }),
  z.object({ kind: z.literal('leave'), network_id: z.number().int().positive(), member_ids: ids }),
  /** To the centers (member_ids) of a network: disconnect these software members' clients now. */
  z.object({ kind: z.literal('client_kill'), network_id: z.number().int().positive(), member_ids: ids, common_names: z.array(z.string()) }),
  /** To a center's session (session_id): the final answer to its client_auth `id` (a web sign-in's, gateway/webSignIn.ts). */
  z.object({
    kind: z.literal('client_auth_result'),
    member_id: z.number().int().positive(),
    session_id: z.string(),
    id: z.string(),
    verdict: z.enum(['accept', 'deny']),
    reason: z.string(),
    client_reason: z.string(),
  }),
  z.object({ kind: z.literal('command'), member_id: z.number().int().positive(), command_id: z.number().int().positive() }),
  z.object({
    kind: z.literal('close'),
    member_id: z.number().int().positive(),
    code: z.number().int(),
    reason: z.string(),
    /** A session that must stay (the new one that caused the close). */
    except: z.string().optional(),
  }),
]);
export type Delivery = z.infer<typeof delivery>;

export const publishDelivery = (ctx: Ctx, d: Delivery) => ctx.pubsub.publish(DEVICE_CHANNELS.deliver, d);
