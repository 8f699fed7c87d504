import { z } from 'zod';
import { trafficPoint } from '@hublink/contract';

/*
 * The pub/sub channels between the device gateway (gateway/) and the modules that show live device
 * data (the router module's traffic stream). A module cannot import the gateway, so both sides speak
 * through these names and schemas. Every message is checked on receipt: another instance may run
 * another version.
 */

export const DEVICE_CHANNELS = {
  /** A console wants a member's traffic: the instance holding its session relays it for WATCH_TTL_MS. */
  watch: 'device.watch',
  /** A member's traffic points, published while someone watches (see trafficChannel). */
  traffic: (memberId: number) => `device.traffic.${memberId}`,
  /** Deliveries to sessions (config, leave, command, close), to whichever instance holds them. */
  deliver: 'device.deliver',
} as const;

/** How long one watch request keeps a member's traffic flowing; a console renews it well before. */
export const WATCH_TTL_MS = 30_000;
export const WATCH_RENEW_MS = 10_000;

export const watchRequest = z.object({ member_id: z.number().int().positive() });
export type WatchRequest = z.infer<typeof watchRequest>;

export const trafficRelay = z.object({ member_id: z.number().int().positive(), data: z.array(trafficPoint) });
export type TrafficRelay = z.infer<typeof trafficRelay>;
