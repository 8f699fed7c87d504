/** Links to pages that take a query parameter, built in one place for every feature that links to them. */

export const networkDetailPath = (networkNumber: string) => `/network/detail?network_number=${encodeURIComponent(networkNumber)}`;

export const networkEditPath = (networkNumber: string) => `/network/edit?network_number=${encodeURIComponent(networkNumber)}`;

/** The hardware router detail (opened in a new tab from a network). */
export const routerDetailPath = (routerName: string) => `/router/detail?router_name=${encodeURIComponent(routerName)}`;

export const announcementDetailPath = (id: number) => `/account/announcements/detail?id=${id}`;
