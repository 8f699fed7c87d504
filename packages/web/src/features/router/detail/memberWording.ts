import { ROUTER_TYPE, type RouterDetail, routerMessages } from '@hublink/contract';

/** A software client (router_type 2), not a hardware router: the detail page words it as the software member list does. */
export const isSoftwareMember = (detail: Pick<RouterDetail, 'router_type'>) => detail.router_type === ROUTER_TYPE.software;

/**
 * How the page words the member's session: a hardware router is 已连接 / 未连接 since 上线时间, a
 * software client 已登录 / 未登录 since 登录时间 (spec 3 §4: member online 1 is shown as logged in).
 */
export function sessionWording(detail: Pick<RouterDetail, 'router_type'>) {
  return isSoftwareMember(detail)
    ? { label: routerMessages.memberColOnline, on: routerMessages.memberOnline, off: routerMessages.memberOffline, since: routerMessages.memberLogTime }
    : { label: routerMessages.routerInfoOnline, on: routerMessages.routerConnected, off: routerMessages.routerDisconnected, since: routerMessages.routerInfoOnlineTime };
}
