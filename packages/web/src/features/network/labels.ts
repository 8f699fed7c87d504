import { fmt, type MemberType, NETWORK_TYPE, type NetworkDetail, networkMessages, networkSettingsUiMessages, priorityOf, ROUTING_LINE, ROUTING_TYPE } from '@hublink/contract';

export { priorityOf };

/** network_type of spec 2 §2: 1 hub, 2 point-to-point, anything else POP. */
export const networkTypeLabel = (type: number) =>
  type === NETWORK_TYPE.hub ? networkMessages.networkTypeHub : type === NETWORK_TYPE.p2p ? networkMessages.networkTypeP2p : networkMessages.networkTypePop;

/** network_level (list) and network_service (detail): 1 basic, otherwise standard. */
export const levelLabel = (level: number) => (level === 1 ? networkMessages.networkLevelBasic : networkMessages.networkLevelStandard);

export const positionLabel = (type: MemberType) => (type === 'center' ? networkMessages.networkPositionCenter : networkMessages.networkPositionPoint);

export const onOffLabel = (v: number) => (v === 1 ? networkMessages.networkOn : networkMessages.networkOff);

/** ncp_ciphers: 'sm' is the national standard, anything else the default. */
export const ciphersLabel = (c: string) => (c === 'sm' ? networkMessages.networkCiphersSm : networkMessages.networkCiphersDefault);

/** Dial (line) mode: 1 default, 2 center first, 3 POP first. */
export const modeLabel = (mode: number) => (mode === 2 ? networkMessages.networkModeCenter : mode === 3 ? networkMessages.networkModePop : networkMessages.networkModeDefault);

/**
 * Line main/backup (the routing type, which the twin-center link shows as its line mode): dual primary,
 * or main-backup with its main line's center; '-' with fewer than two centers, where it means nothing.
 */
export function routingLabel(detail: Pick<NetworkDetail, 'centers' | 'network_center_link_network'>): string {
  const centers = detail.centers;
  if (centers.length < 2) return orDash(null);
  if (detail.network_center_link_network.line_mode !== ROUTING_TYPE.mainBackup) return networkSettingsUiMessages.netSetRoutingDual;
  const main = centers.find((m) => m.routing === ROUTING_LINE.main);
  return main ? fmt(networkSettingsUiMessages.netSetRoutingMainBackupOf, { name: main.router_name }) : networkSettingsUiMessages.netSetRoutingMainBackup;
}

/** Default route 0 off, 1 advertise (with its priority), 2 receive. */
export function defaultRouteLabel(route: number, metric: number): string {
  if (route === 1) {
    const p = priorityOf(metric);
    return p > 0 ? `${networkMessages.networkRouteAdvertise} ${fmt(networkMessages.networkRoutePriority, { n: p })}` : networkMessages.networkRouteAdvertise;
  }
  return route === 2 ? networkMessages.networkRouteReceive : networkMessages.networkRouteOff;
}


/** '-' for an empty value. */
export const orDash = (v: string | null | undefined) => (v ? v : '-');

/** The line (main or backup) of a center is shown once a network has this many centers. */
export const LINES_FROM_CENTERS = 2;
