import type { DeviceInterface, DeviceLink, NetworkConfigPayload, TrafficPoint } from '@hublink/contract';
import type { ClientAuthAnswer, ClientAuthRequest } from './openvpn/clientAuth';

/** A session the device reports as `session` up/down (the console's online log). */
export interface DeviceSession {
  id: string;
  mode: 'p2p' | 'pop';
  network_number: string;
  link_router_name: string;
  pop_name: string;
  area: string;
  orig: string;
  vpn_ip: string;
  /** Epoch seconds it came up. */
  time: number;
  /** At its end, its own counters from this device's side, when known. */
  bytes_received?: number;
  bytes_sent?: number;
}

export interface FlowSample {
  kind: 'app' | 'orig';
  name: string;
  download: number;
  upload: number;
}

export interface TrafficSample {
  data: TrafficPoint[];
  rx_bytes: number;
  tx_bytes: number;
}

/** What a device tells the client as things happen between the client's own periodic reports. */
export interface DeviceEvents {
  sessionUp(session: DeviceSession): void;
  sessionDown(session: DeviceSession): void;
  log(line: string): void;
  /** A link went up or down: the client reports the links soon rather than at the next status interval. */
  linksChanged?(): void;
  /** A center's software service asks who may connect (issue 30): the platform decides. */
  clientAuth?(networkNumber: string, request: ClientAuthRequest): Promise<ClientAuthAnswer>;
  /** What the member's own software tunnels present to their centers: its login and device credential; null when it has none. */
  tunnelLogin?(): { username: string; password: string } | null;
}

export interface DeviceIdentity {
  os: string;
  version: string;
  sys_brand: string;
  sys_model: string;
  sys_version: string;
  router_model: string;
  router_mac: string;
  router_ipv4: string;
  interfaces: DeviceInterface[];
}

/**
 * The data plane under the protocol client: simulated (synthetic links and traffic) or OpenVPN (real
 * tunnels read through the management interface). The client owns the connection; the device owns tunnels.
 */
export interface Device {
  readonly mode: 'simulated' | 'openvpn';
  /** The client hands the device where to report sessions and log lines. */
  attach(events: DeviceEvents): void;
  identity(): DeviceIdentity;
  /** Rejects with a message when the config cannot be applied; the client answers `applied` either way. */
  apply(config: NetworkConfigPayload): Promise<void>;
  leave(networkNumber: string): Promise<void>;
  /** The login the member's tunnels present changed (a new credential): their login files follow. */
  loginChanged?(): Promise<void>;
  /** A center disconnects these members' clients now (their certificate or person was withdrawn). */
  killClients?(networkNumber: string, commonNames: string[]): Promise<void>;
  /** kill: drop the network's tunnels (they come back as a kicked tunnel would); restart: restart them now. */
  command(kind: 'kill' | 'restart' | 'resend_config', networkNumber: string): Promise<void>;
  links(): DeviceLink[];
  /** Traffic over the last `seconds` (Mbit/s per interface) and byte counters since the tunnels started. */
  traffic(seconds: number): TrafficSample;
  /** Flow records accumulated over the last `seconds`. */
  flows(seconds: number): FlowSample[];
  /** The sessions up now (resent after a reconnect, since the server closed them with the old session). */
  openSessions(): DeviceSession[];
  stop(): Promise<void>;
}
