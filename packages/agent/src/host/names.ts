/** The agent's tunnel devices are named `hl<number>` (hl0, hl1, …); nftables matches them as `hl*`. */
export const TUNNEL_DEVICE_PREFIX = 'hl';

/** The nftables/iptables interface-name wildcard that matches every tunnel device. */
export const TUNNEL_DEVICE_PATTERN = `${TUNNEL_DEVICE_PREFIX}*`;
