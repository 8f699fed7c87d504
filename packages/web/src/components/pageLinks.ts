/** Links to pages that take a query parameter, built in one place for every feature that links to them. */

export const networkDetailPath = (networkNumber: string) => `/network/detail?network_number=${encodeURIComponent(networkNumber)}`;

export const networkEditPath = (networkNumber: string) => `/network/edit?network_number=${encodeURIComponent(networkNumber)}`;

/** The hardware router detail (opened in a new tab from a network). */
export const routerDetailPath = (routerName: string) => `/router/detail?router_name=${encodeURIComponent(routerName)}`;

export const announcementDetailPath = (id: number) => `/account/announcements/detail?id=${id}`;

/** The member list on one tab (1 hardware, 2 software), filtered to an overview state when one is given. */
export const memberListPath = (type: number, state?: string) => `/router/lists?type=${type}${state ? `&state=${encodeURIComponent(state)}` : ''}`;

/** The message centre with one type of message (the overview's alerts: 'alert'). */
export const messagesOfTypePath = (type: string) => `/account/message?type=${encodeURIComponent(type)}`;
