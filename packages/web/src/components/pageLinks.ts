/** Links to pages that take a query parameter, built in one place for every feature that links to them. */

/**
 * The network detail; links from a router's detail carry the network's name too, as spec 2 §2 and
 * spec 3 §2 write them (/network/detail?network_name&network_number). The page reads the number only.
 */
export const networkDetailPath = (networkNumber: string, networkName?: string) =>
  `/network/detail?${networkName === undefined ? '' : `network_name=${encodeURIComponent(networkName)}&`}network_number=${encodeURIComponent(networkNumber)}`;

export const networkEditPath = (networkNumber: string) => `/network/edit?network_number=${encodeURIComponent(networkNumber)}`;

/** The hardware router detail (opened in a new tab from a network). */
export const routerDetailPath = (routerName: string) => `/router/detail?router_name=${encodeURIComponent(routerName)}`;

export const announcementDetailPath = (id: number) => `/account/announcements/detail?id=${id}`;

/** The member list on one tab (1 hardware, 2 software), filtered to an overview state when one is given. */
export const memberListPath = (type: number, state?: string) => `/router/lists?type=${type}${state ? `&state=${encodeURIComponent(state)}` : ''}`;

/** The message centre with one type of message (the overview's alerts: 'alert'). */
export const messagesOfTypePath = (type: string) => `/account/message?type=${encodeURIComponent(type)}`;
