import { CommandError, type HostCommands } from './commands';
import { disjointPrefixes } from './cidr';
import { TUNNEL_DEVICE_PATTERN } from './names';

/** The agent's own nftables table; nothing else of the ruleset is touched. */
export const NAT_TABLE = 'hublink';

/** Masquerading for a member that advertises the default route; `internal`: the network's prefixes. */
export interface NatState {
  internal: string[];
}

interface JsonElement {
  prefix?: { addr: string; len: number };
}

/**
 * The whole table, replacing any earlier one in one transaction: declaring it first makes the delete
 * succeed when there is none. Masquerades what came in on a tunnel and leaves on another kind of device
 * for an address outside the network.
 */
function ruleset(state: NatState | null): string {
  const reset = [`table ip ${NAT_TABLE} {}`, `delete table ip ${NAT_TABLE}`];
  if (!state) return `${reset.join('\n')}\n`;
  const elements = disjointPrefixes(state.internal);
  return `${[
    ...reset,
    `table ip ${NAT_TABLE} {`,
    '  set internal {',
    '    type ipv4_addr',
    '    flags interval',
    // nft refuses an empty element list: an empty set has none.
    ...(elements.length > 0 ? [`    elements = { ${elements.join(', ')} }`] : []),
    '  }',
    '  chain postrouting {',
    '    type nat hook postrouting priority srcnat; policy accept;',
    `    iifname "${TUNNEL_DEVICE_PATTERN}" oifname != "${TUNNEL_DEVICE_PATTERN}" ip daddr != @internal masquerade`,
    '  }',
    '}',
  ].join('\n')}\n`;
}

/** Writes the agent's table for `state` (whole, atomically), or removes it for null. */
export async function setNat(host: HostCommands, state: NatState | null): Promise<void> {
  await host.run('nft', ['-f', '-'], ruleset(state));
}

/** The internal set of the agent's table (canonical, sorted, nested prefixes dropped), or null when there is no table. */
export async function readNat(host: HostCommands): Promise<NatState | null> {
  let out: string;
  try {
    out = await host.run('nft', ['-j', 'list', 'set', 'ip', NAT_TABLE, 'internal']);
  } catch (e) {
    if (e instanceof CommandError && /No such file or directory/.test(e.stderr)) return null;
    throw e;
  }
  const items = (JSON.parse(out) as { nftables: { set?: { elem?: (string | JsonElement)[] } }[] }).nftables;
  const elements = items.find((i) => i.set)?.set?.elem ?? [];
  return {
    internal: elements.map((e) => {
      if (typeof e === 'string') return `${e}/32`;
      if (e.prefix) return `${e.prefix.addr}/${e.prefix.len}`;
      throw new Error(`unexpected element in ${NAT_TABLE}'s internal set: ${JSON.stringify(e)}`);
    }),
  };
}
