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
  link: NetworkLink[];
  /** Config and command state by router_name; empty until the first poll. */
  device: Record<string, MemberDeviceState>;
}

/** The detail as last loaded, with the online flags, links and status of the latest poll laid over it. */
export function liveView(detail: NetworkDetail, status: LiveStatus | undefined): LiveView {
  if (!status) return { network_status: detail.network_status, member: detail.member, link: detail.link, device: {} };
  return {
    network_status: status.network_status,
    member: detail.member.map((m) => {
      const online = status.online[m.router_name];
      return online === undefined || online === m.online ? m : { ...m, online };
    }),
    link: status.link,
    device: status.device,
  };
}
