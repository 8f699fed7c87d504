import type { WebSocket } from 'ws';
import { DEVICE_LIMITS, serverMessage, type ServerMessage, type TrafficPoint } from '@hublink/contract';
import type { DeviceMember } from './auth';

export interface HeldNetwork {
  number: string;
  /** 'center' | 'point': the member's role (network_member at the welcome, then its compiled config). */
  memberType: string;
}

/** One device's connection after its welcome: who it is, what it holds, what it last reported. */
export class DeviceSession {
  lastSeen: number;
  /** Networks the member is in, by network id. */
  readonly networks = new Map<number, HeldNetwork>();
  /** Link states last queued for writing, by `network_id:center_member_id`, as `online|vpn_ip|since`. */
  readonly reported = new Map<string, string>();
  /** Peer router_names resolved to member ids (this tenant). */
  readonly peers = new Map<string, number>();
  /** The latest traffic points (a console that starts watching gets them at once). */
  recentTraffic: TrafficPoint[] = [];
  watchedUntil = 0;
  /** Messages counted in the current window (a flood closes the session). */
  messages = 0;
  /** Why the session closed (the first close wins: the server's reason, else the device's close frame). */
  closeCode = 0;
  closeReason = '';
  /** The origin the device reached the platform at: where a standard client of a center opens its web sign-in. */
  origin = '';
  /**
   * What standard clients of this center said of themselves when they asked to connect (platform,
   * version), by lower-case common name, until their session is reported: the login log shows them.
   */
  readonly clientHellos = new Map<string, { os: string; version: string }>();
  /** The latest session reports' write (messages.ts): the session's end waits for it. */
  writing: Promise<unknown> = Promise.resolve();
  /** Set once the end is being written; the end is written once. */
  ending: Promise<void> | undefined;

  constructor(
    readonly id: string,
    readonly member: DeviceMember,
    readonly socket: WebSocket,
    readonly protocol: number,
    now: number,
    /** The device's address (diagnosis shows it with the last-seen time). */
    readonly remoteIp = '',
  ) {
    this.lastSeen = now;
  }

  networkIdOf(number: string): number | undefined {
    for (const [id, n] of this.networks) if (n.number === number) return id;
    return undefined;
  }

  /** Sends a server message (checked against the contract in development and tests). */
  send(message: ServerMessage) {
    if (this.socket.readyState !== this.socket.OPEN) return;
    if (process.env.NODE_ENV !== 'production') serverMessage.parse(message);
    this.socket.send(JSON.stringify(message));
  }

  /** Records why the session closed, once. */
  closedWith(code: number, reason: string) {
    if (this.closeCode !== 0) return;
    this.closeCode = code;
    this.closeReason = reason.slice(0, 128);
  }

  keepTraffic(points: TrafficPoint[]) {
    this.recentTraffic = [...this.recentTraffic, ...points].slice(-DEVICE_LIMITS.trafficPoints);
  }
}
