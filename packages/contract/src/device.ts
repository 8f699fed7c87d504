import { z } from 'zod';
import { MEMBER_COMMANDS } from './networkSettings';

/*
 * The device protocol (WS /api/device/v1/ws; docs/device-protocol.md is the prose version): one JSON
 * object per WebSocket text message, told apart by `type`. Both sides check every message with these
 * schemas. Objects are not strict: a field a newer peer adds is dropped, not refused, and a message
 * type a side does not know is ignored, so old agents keep working against a newer server.
 */

/** The protocol versions the server speaks; a hello names the newest the device speaks. */
export const DEVICE_PROTOCOL = { current: 3, oldest: 1 } as const;

/**
 * The version from which a device understands a feature. 2: the agent answers OpenVPN's client
 * authentication on a center (client_auth, client_kill; issue 30): a center on an older agent gets its
 * software service without `management-client-auth`, which it would never answer. 3: the device reports
 * its tunnel sessions in batches (`sessions`; issue 34): a center of 5,000 points reports them in a few
 * messages, not 5,000.
 */
export const DEVICE_FEATURES = { clientAuth: 2, sessionBatches: 3 } as const;

/** Timing the server asks of devices (seconds); the welcome carries them so they can change. */
export const DEVICE_TIMING = {
  /**
   * A session without any message for this long is closed (4008) and the member is offline: two ping
   * intervals plus 5 s for a late network, so no member shows online after two missed heartbeats (the
   * gateway checks every second).
   */
  heartbeatTimeout: 25,
  /** A device with nothing else to say sends a ping this often. */
  pingInterval: 10,
  statusInterval: 10,
  trafficInterval: 5,
  /** A device waiting for approval (4030) says hello again this often, in seconds. */
  approvalRetry: 15,
} as const;

/** Bounds of what a device may send (a message over maxMessageBytes closes the session with 1009). */
export const DEVICE_LIMITS = {
  maxMessageBytes: 256 * 1024,
  interfaces: 64,
  links: 1024,
  /** Session reports in one `sessions` message (each at most ~700 bytes, so a batch stays under maxMessageBytes). */
  sessionsPerMessage: 300,
  trafficPoints: 256,
  flowRecords: 2000,
  text: 128,
} as const;

/** WebSocket close codes the server uses, with the reason text it sends. */
export const DEVICE_CLOSE = {
  /** The server is shutting down or restarting: reconnect (with backoff). */
  goingAway: 1001,
  /** A message over DEVICE_LIMITS.maxMessageBytes. */
  tooBig: 1009,
  /** The server failed to set the session up (its fault, not the device's): reconnect (with backoff). */
  serverError: 1011,
  /** Wrong name, login, secret, password or credential. */
  authFailed: 4001,
  /** The member exists but is disabled (status not 1). */
  disabled: 4002,
  /** The member was deleted, or its secret or password changed: sign in again with the new secret. */
  revoked: 4003,
  /** Another session of the same member signed in; this one is closed. */
  replaced: 4004,
  /** No hello within DEVICE_TIMING.heartbeatTimeout, or a message before hello. */
  helloExpected: 4005,
  /** No message for DEVICE_TIMING.heartbeatTimeout. */
  heartbeatTimeout: 4008,
  /** A message that is not JSON or does not match its schema. */
  protocolError: 4009,
  /** The hello names a protocol older than DEVICE_PROTOCOL.oldest. */
  unsupportedProtocol: 4010,
  /** Too many failed sign-ins for this member or from this address: wait and retry. */
  tooManyAttempts: 4029,
  /** The tenant approves new devices and this one is not approved yet: retry every DEVICE_TIMING.approvalRetry seconds (issue 30). */
  awaitingApproval: 4030,
  /** The tenant's administrator refused this device: it may not sign in as this member. */
  deviceRefused: 4031,
} as const;

const text = (max: number = DEVICE_LIMITS.text) => z.string().max(max);
const ipv4 = z.string().max(64);
const count = z.number().int().min(0);
/** Mbit/s, as the console's charts show them. */
const rate = z.number().min(0).max(1e7);
const epochSeconds = z.number().int().min(0).max(1e11);

export const deviceInterface = z.object({
  interface_uuid: text(64),
  interface: text(64),
  protocol: z.enum(['static', 'dhcp', 'pppoe']).catch('static'),
  ipv4: ipv4.default(''),
  ipv4_subnet_mask: ipv4.default(''),
  mtu: z.number().int().min(0).max(65535).default(1500),
});
export type DeviceInterface = z.infer<typeof deviceInterface>;

/** What the device already holds, so the welcome can skip configs that did not change. */
const heldConfig = z.object({ network_number: text(64), version: count });

const helloBase = {
  type: z.literal('hello'),
  /** The newest protocol version the device speaks. */
  protocol: z.number().int().min(0),
  /** A credential from an earlier welcome: checked instead of the secret (cheap), refused (4001) once revoked. */
  credential: text(128).optional(),
  /** A random id the device made once and keeps (its state directory), so the tenant can approve this device (issue 30). */
  device_id: text(64).optional(),
  os: text(32).default(''),
  version: text(32).default(''),
  sys_brand: text(64).default(''),
  sys_model: text(64).default(''),
  sys_version: text(64).default(''),
  interfaces: z.array(deviceInterface).max(DEVICE_LIMITS.interfaces).default([]),
  configs: z.array(heldConfig).max(DEVICE_LIMITS.links).default([]),
};

/** A hardware router: its router_name and device secret (the member's password). */
export const routerHello = z.object({
  ...helloBase,
  kind: z.literal('router'),
  router_name: text(64).min(1),
  secret: text(128).optional(),
  router_model: text(64).default(''),
  router_mac: text(64).default(''),
  router_ipv4: ipv4.default(''),
});

/** A software client: `username@sign` and the member's password. */
export const appHello = z.object({
  ...helloBase,
  kind: z.literal('app'),
  login: text(128).min(3),
  secret: text(128).optional(),
});

export const helloMessage = z.discriminatedUnion('kind', [routerHello, appHello]);
export type HelloMessage = z.infer<typeof helloMessage>;

export const deviceLink = z.object({
  network_number: text(64),
  /** The other end: a center's router_name for a point, a point's for a center. */
  peer: text(64),
  vpn_ip: ipv4.default(''),
  online: z.union([z.literal(0), z.literal(1)]),
  /** When the link came up (epoch seconds); 0 when down. */
  since: epochSeconds.default(0),
  /** A point's tunnel that is up: straight to its center, or through a POP area's relay (issue 30). */
  path: z.enum(['center', 'pop']).optional(),
  /** The POP area's name when path is 'pop'. */
  pop_area: text(64).optional(),
});
export type DeviceLink = z.infer<typeof deviceLink>;

export const statusMessage = z.object({
  type: z.literal('status'),
  links: z.array(deviceLink).max(DEVICE_LIMITS.links),
});

export const trafficPoint = z.object({
  interface: text(64),
  time: epochSeconds,
  /** Mbit/s over the interval. */
  down: rate,
  upload: rate,
});
export type TrafficPoint = z.infer<typeof trafficPoint>;

export const trafficMessage = z.object({
  type: z.literal('traffic'),
  data: z.array(trafficPoint).max(DEVICE_LIMITS.trafficPoints),
  /** Byte counters since the device's tunnel process started (router detail input/out). */
  rx_bytes: count.default(0),
  tx_bytes: count.default(0),
});

/** A tunnel session began or ended (the online log), as `session` and `sessions` carry it. */
const sessionReportFields = {
  event: z.enum(['up', 'down']),
  /** The device's own id for the session, unique per device, so its 'down' finds its 'up'. */
  id: text(64).min(1),
  mode: z.enum(['p2p', 'pop']),
  network_number: text(64).default(''),
  link_router_name: text(64).default(''),
  pop_name: text(64).default(''),
  area: text(64).default(''),
  /** Where the session came from (address:port). */
  orig: text(64).default(''),
  vpn_ip: ipv4.default(''),
  time: epochSeconds,
  /**
   * On 'down', the session's own counters from the reporting device's side (received, sent), when it
   * has them (issue 30): a center's for one client, a point's for its tunnel since it came up.
   */
  bytes_received: count.optional(),
  bytes_sent: count.optional(),
};
export const sessionReport = z.object(sessionReportFields);
export type SessionReport = z.infer<typeof sessionReport>;

export const sessionMessage = z.object({ type: z.literal('session'), ...sessionReportFields });

/** Session reports in the order they happened (protocol 3, DEVICE_FEATURES.sessionBatches). */
export const sessionsMessage = z.object({
  type: z.literal('sessions'),
  sessions: z.array(sessionReport).min(1).max(DEVICE_LIMITS.sessionsPerMessage),
});

export const flowRecord = z.object({
  /** An application name (app logs) or a source address (source logs). */
  kind: z.enum(['app', 'orig']),
  name: text(),
  download: count,
  upload: count,
  time: epochSeconds,
});
export type FlowRecord = z.infer<typeof flowRecord>;

export const flowsMessage = z.object({
  type: z.literal('flows'),
  records: z.array(flowRecord).max(DEVICE_LIMITS.flowRecords),
});

/** The device's answer to a command. */
export const ackMessage = z.object({
  type: z.literal('ack'),
  command_id: z.number().int().min(1),
  ok: z.boolean(),
  error: text(256).default(''),
});

/** The device applied (or failed to apply) a network's config version. */
export const appliedMessage = z.object({
  type: z.literal('applied'),
  network_number: text(64),
  version: count,
  ok: z.boolean(),
  error: text(256).default(''),
});

export const pingMessage = z.object({ type: z.literal('ping') });

/**
 * A center asks who may use its software service (issue 30): OpenVPN verified the client's certificate
 * and hands the rest to the agent (`management-client-auth`), which asks here. The server answers with
 * client_auth_result under the same id; a pending answer (web sign-in) is followed by a final one.
 */
export const clientAuthMessage = z.object({
  type: z.literal('client_auth'),
  /** The center's own id for the request, unique among its open ones. */
  id: text(64).min(1),
  network_number: text(64),
  /** The certificate's common name (a member's router_name) and its serial, in decimal. */
  common_name: text(64),
  serial: text(64).default(''),
  username: text(128).default(''),
  password: text(256).default(''),
  /** Where the client connects from (address:port). */
  orig: text(64).default(''),
  /** A TLS renegotiation of a session already admitted, not a new connection. */
  reauth: z.boolean().default(false),
  /** What the client says of itself (IV_PLAT, IV_GUI_VER, IV_SSO, IV_HWADDR). */
  platform: text(64).default(''),
  client_version: text(128).default(''),
  sso: text(128).default(''),
  hwaddr: text(64).default(''),
});
export type ClientAuthMessage = z.infer<typeof clientAuthMessage>;

/*
 * The directory relay (issue 33, LDAP private mode): the server reaches a tenant's directory inside a
 * branch network through the router the LDAP configuration names. The gateway names the target
 * (directory_target), asks for a TCP connection to it (directory_open), and both sides relay the
 * connection's bytes (directory_data, base64) until one closes it (directory_close). The agent opens
 * nothing else: an open for any other host or port, or without a named target, is refused.
 */

/** Bytes of one directory_data message, at most (base64 makes them a third larger). */
export const DIRECTORY_RELAY = { chunkBytes: 48 * 1024, connections: 8, openTimeoutSeconds: 15 } as const;
const relayId = text(64).min(1);
const relayData = z.string().max(Math.ceil(DIRECTORY_RELAY.chunkBytes / 3) * 4);

/** The agent's answer to directory_open: ok, or why not (an errno such as ECONNREFUSED, or `not_named`). */
export const directoryOpenedMessage = z.object({ type: z.literal('directory_opened'), id: relayId, ok: z.boolean(), error: text(128).default('') });
/** Bytes of a relayed connection, either way. */
export const directoryDataMessage = z.object({ type: z.literal('directory_data'), id: relayId, data: relayData });
/** A relayed connection ended, either way (`error`: why, when it failed). */
export const directoryCloseMessage = z.object({ type: z.literal('directory_close'), id: relayId, error: text(128).default('') });

/** Every message a device sends after its hello. */
export const deviceMessage = z.discriminatedUnion('type', [
  statusMessage,
  trafficMessage,
  sessionMessage,
  sessionsMessage,
  flowsMessage,
  ackMessage,
  appliedMessage,
  pingMessage,
  clientAuthMessage,
  directoryOpenedMessage,
  directoryDataMessage,
  directoryCloseMessage,
]);
export type DeviceMessage = z.infer<typeof deviceMessage>;
export const DEVICE_MESSAGE_TYPES = [
  'hello',
  'status',
  'traffic',
  'session',
  'sessions',
  'flows',
  'ack',
  'applied',
  'ping',
  'client_auth',
  'directory_opened',
  'directory_data',
  'directory_close',
] as const;

// ---- server → device ----

/** PEM texts the rendered OpenVPN files name: write them beside the files. */
export const deviceCertificates = z.object({
  'ca.crt': z.string(),
  'member.crt': z.string(),
  'member.key': z.string(),
  /** Present for a center (server role). */
  'crl.pem': z.string().optional(),
  /** The network's OpenVPN tls-crypt key (the same for every member); absent from an older server. */
  'tls-crypt.key': z.string().optional(),
});

export const networkConfigPayload = z.object({
  network_number: z.string(),
  network_name: z.string(),
  version: count,
  /** The compiler's structured JSON for this member. */
  config: z.record(z.string(), z.unknown()),
  /** OpenVPN files by relative path. */
  openvpn: z.record(z.string(), z.string()),
  certificates: deviceCertificates.nullable(),
});
export type NetworkConfigPayload = z.infer<typeof networkConfigPayload>;

export const welcomeMessage = z.object({
  type: z.literal('welcome'),
  /** The version both sides speak from now on. */
  protocol: z.number().int(),
  session_id: z.string(),
  /** Issued when the hello proved the secret: send it in later hellos instead of the secret. */
  credential: z.string().optional(),
  member: z.object({ router_name: z.string(), router_type: z.number().int() }),
  timing: z.object({ heartbeat_timeout: z.number(), ping_interval: z.number(), status_interval: z.number(), traffic_interval: z.number() }),
  /** Configs whose version differs from what the hello said the device holds. */
  configs: z.array(networkConfigPayload),
  /** The networks the member is in (configs lists only the changed ones): a held network not here is left. */
  networks: z.array(z.string()),
});

export const configMessage = networkConfigPayload.extend({ type: z.literal('config') });

/** The member left a network: stop its tunnels and remove its files. */
export const leaveMessage = z.object({ type: z.literal('leave'), network_number: z.string() });

/** The commands of the network settings (member_command.kind). */
export const DEVICE_COMMANDS = MEMBER_COMMANDS;
export const commandMessage = z.object({
  type: z.literal('command'),
  command_id: z.number().int(),
  kind: z.enum(DEVICE_COMMANDS),
  network_number: z.string(),
  payload: z.record(z.string(), z.unknown()),
});

export const pongMessage = z.object({ type: z.literal('pong') });

/**
 * The answer to a client_auth. `pending`: the person must finish a web sign-in at `url` within
 * `timeout` seconds (OpenVPN's WEB_AUTH); a second answer with the same id follows.
 */
export const clientAuthResultMessage = z.object({
  type: z.literal('client_auth_result'),
  id: z.string(),
  verdict: z.enum(['accept', 'deny', 'pending']),
  /** For the center's log. */
  reason: z.string().default(''),
  /** What the client is told when refused. */
  client_reason: z.string().default(''),
  url: z.string().default(''),
  timeout: z.number().int().min(0).default(0),
});
export type ClientAuthResultMessage = z.infer<typeof clientAuthResultMessage>;

/** A center disconnects these members' clients from its software service now (disabled, deleted, re-issued). */
export const clientKillMessage = z.object({ type: z.literal('client_kill'), network_number: z.string(), common_names: z.array(z.string()) });

/** Sent just before the server closes a session, with the close code's meaning in words. */
export const errorMessage = z.object({ type: z.literal('error'), code: z.number().int(), message: z.string() });

/** The directory this router may connect to for the server (host '' : none). */
export const directoryTargetMessage = z.object({ type: z.literal('directory_target'), host: z.string().max(255), port: z.number().int().min(0).max(65535) });
/** Open a TCP connection `id` to host:port, which must be the named target. */
export const directoryOpenMessage = z.object({ type: z.literal('directory_open'), id: relayId, host: z.string().max(255), port: z.number().int().min(1).max(65535) });

export const serverMessage = z.discriminatedUnion('type', [
  welcomeMessage,
  configMessage,
  leaveMessage,
  commandMessage,
  pongMessage,
  errorMessage,
  clientAuthResultMessage,
  clientKillMessage,
  directoryTargetMessage,
  directoryOpenMessage,
  directoryDataMessage,
  directoryCloseMessage,
]);
export type ServerMessage = z.infer<typeof serverMessage>;
export type WelcomeMessage = z.infer<typeof welcomeMessage>;
export type CommandMessage = z.infer<typeof commandMessage>;

/** What the live traffic stream to the console (WS /api/v1/router/traffic) relays. */
export const consoleTrafficMessage = z.object({
  code: z.number().int(),
  msg: z.string().optional(),
  type: z.literal('interface').optional(),
  data: z.array(trafficPoint).optional(),
});
