import type { MemberDeviceState, NetworkDetail, NetworkLink, NetworkMember } from '@hublink/contract';

/** What GET /network/status answers every 10 s. */
export interface LiveStatus {
  network_status: number;
  link: NetworkLink[];
  online: Record<string, number>;
  device: Record<string, MemberDeviceState>;
}

export interface LiveView {
  network_status: number;
  member: NetworkMember[];
  centers: NetworkMember[];
  link: NetworkLink[];
  /** Config and command state by router_name; empty until the first poll. */
  device: Record<string, MemberDeviceState>;
}

/**
 * The detail as last loaded, with the online flags, links and status of the latest poll laid over it.
 * The poll must be of the same pages as the detail (the caller leaves out a poll kept from other pages).
 */
export function liveView(detail: NetworkDetail, status: LiveStatus | undefined): LiveView {
  if (!status) return { network_status: detail.network_status, member: detail.member, centers: detail.centers, link: detail.link, device: {} };
  const flagged = (m: NetworkMember) => {
    const online = status.online[m.router_name];
    return online === undefined || online === m.online ? m : { ...m, online };
  };
  return { network_status: status.network_status, member: detail.member.map(flagged), centers: detail.centers.map(flagged), link: status.link, device: status.device };
}
