import { M, NETWORK_TYPE, ROUTING_LINE, ROUTING_TYPE, fmt, priorityOf, type NetworkDetail, type MemberType } from '@hublink/contract';

export { priorityOf };

/** network_type of spec 2 §2: 1 hub, 2 point-to-point, anything else POP. */
export const networkTypeLabel = (type: number) =>
  type === NETWORK_TYPE.hub ? M.networkTypeHub : type === NETWORK_TYPE.p2p ? M.networkTypeP2p : M.networkTypePop;

/** network_level (list) and network_service (detail): 1 basic, otherwise standard. */
export const levelLabel = (level: number) => (level === 1 ? M.networkLevelBasic : M.networkLevelStandard);

export const positionLabel = (type: MemberType) => (type === 'center' ? M.networkPositionCenter : M.networkPositionPoint);

export const onOffLabel = (v: number) => (v === 1 ? M.networkOn : M.networkOff);

/** ncp_ciphers: 'sm' is the national standard, anything else the default. */
export const ciphersLabel = (c: string) => (c === 'sm' ? M.networkCiphersSm : M.networkCiphersDefault);

/** Dial (line) mode: 1 default, 2 center first, 3 POP first. */
export const modeLabel = (mode: number) => (mode === 2 ? M.networkModeCenter : mode === 3 ? M.networkModePop : M.networkModeDefault);

/**
 * Line main/backup (the routing type, which the twin-center link shows as its line mode): dual primary,
 * or main-backup with its main line's center; '-' with fewer than two centers, where it means nothing.
 */
export function routingLabel(detail: Pick<NetworkDetail, 'member' | 'network_center_link_network'>): string {
  const centers = detail.member.filter((m) => m.member_type === 'center');
  if (centers.length < 2) return orDash(null);
  if (detail.network_center_link_network.line_mode !== ROUTING_TYPE.mainBackup) return M.netSetRoutingDual;
  const main = centers.find((m) => m.routing === ROUTING_LINE.main);
  return main ? fmt(M.netSetRoutingMainBackupOf, { name: main.router_name }) : M.netSetRoutingMainBackup;
}

/** Default route 0 off, 1 advertise (with its priority), 2 receive. */
export function defaultRouteLabel(route: number, metric: number): string {
  if (route === 1) {
    const p = priorityOf(metric);
    return p > 0 ? `${M.networkRouteAdvertise} ${fmt(M.networkRoutePriority, { n: p })}` : M.networkRouteAdvertise;
  }
  return route === 2 ? M.networkRouteReceive : M.networkRouteOff;
}


/** '-' for an empty value. */
export const orDash = (v: string | null | undefined) => (v ? v : '-');

/** The line (main or backup) of a center is shown once a network has this many centers. */
export const LINES_FROM_CENTERS = 2;
