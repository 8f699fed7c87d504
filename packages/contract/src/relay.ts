import { z } from 'zod';

/*
 * The POP relay's call to the device gateway (issue 30): `hublink relay` posts its load to
 * POST /api/device/v1/relay/sync with its token (Authorization: Bearer …) every few seconds and gets
 * its forwarding table back; the post is also its liveness. Answers use the usual envelope.
 */

export const RELAY_PATH = '/api/device/v1/relay/sync';

export const RELAY_TIMING = {
  /** How often a relay posts its load and fetches its table. */
  pollSeconds: 3,
  /** A relay not heard from for this long is shown dead (`hublink ops pops relay-list`). */
  liveSeconds: 15,
  /** A client's flow that carried nothing for this long is forgotten (its upstream socket closed). */
  flowIdleSeconds: 60,
} as const;

export const RELAY_LIMITS = {
  /** Token length the server issues ('hlr_' and 32 base64url characters); longer input is refused unread. */
  tokenMax: 64,
  /** Flows per relay at once (each holds an upstream socket). */
  flows: 20_000,
  /** Sync calls per relay per minute (a relay polls every pollSeconds); failed tokens per address per 15 min. */
  syncPerMinute: 60,
  badTokenPerIp: 30,
} as const;

const counter = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

export const relayReport = z.object({
  /** Client flows the relay holds now. */
  sessions: counter,
  /** Bytes received from clients and from centers since the relay started. */
  bytes_in: counter,
  bytes_out: counter,
  version: z.string().max(32).default(''),
});
export type RelayReport = z.infer<typeof relayReport>;

export const relayForward = z.object({
  /** The port the relay listens on (UDP). */
  port: z.number().int().min(1).max(65_535),
  /** Where that port's packets go: the center's address and port. */
  host: z.string().min(1).max(255),
  target_port: z.number().int().min(1).max(65_535),
  /** For the relay's log: network number, center and service. */
  label: z.string().max(160),
});
export type RelayForward = z.infer<typeof relayForward>;

export const relayTable = z.object({
  /** The POP area's name. */
  area: z.string(),
  poll_seconds: z.number().int().min(1),
  forwards: z.array(relayForward),
});
export type RelayTable = z.infer<typeof relayTable>;
