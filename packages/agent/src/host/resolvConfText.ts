/** The first words of a resolv.conf the agent wrote: how it knows the file is still its own. */
export const RESOLV_CONF_HEADER = '# Written by the HubLink agent';

/** The resolver reads at most three nameserver lines (glibc's MAXNS); more are ignored. */
export const MAX_NAMESERVERS = 3;

const NAMESERVER = /^\s*nameserver\s+(\S+)/;

/**
 * The resolv.conf the agent writes: its header, the network's servers first, the original's servers
 * after them while there is room, then the original's other lines (search, options, comments).
 */
export function composeResolvConf(original: string, servers: string[], device: string): string {
  const lines = original.split('\n');
  const theirs = lines.map((l) => NAMESERVER.exec(l)?.[1]).filter((s): s is string => s !== undefined);
  const nameservers = [...new Set([...servers.slice(0, MAX_NAMESERVERS), ...theirs])].slice(0, MAX_NAMESERVERS);
  const rest = lines.filter((l) => !NAMESERVER.test(l) && !l.startsWith(RESOLV_CONF_HEADER));
  while (rest.length > 0 && rest[rest.length - 1]!.trim() === '') rest.pop();
  const header = `${RESOLV_CONF_HEADER} for ${device}; the original comes back when the agent leaves the network or stops.`;
  return `${[header, ...nameservers.map((s) => `nameserver ${s}`), ...rest].join('\n')}\n`;
}
