import { LIMITS, M, NETWORK_TYPE, fmt, type MemberType } from '@hublink/contract';

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

/** Metric 30, 60, 90, 120, 150 is priority 1 to 5; an unknown metric gives 0. */
export const priorityOf = (metric: number) => (LIMITS.defaultRouteMetrics as readonly number[]).indexOf(metric) + 1;

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

