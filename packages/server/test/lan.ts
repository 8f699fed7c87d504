import { sh, type NetLab } from './netns';

/*
 * LANs behind members for the data-plane laboratory. A member's LAN is a bridge in the member's
 * namespace holding the member's LAN address ('10.10.1.1/24'); each machine on it (a PC: lanHost; a
 * customer's router: frr.ts) is a namespace of its own joined to the bridge by a veth pair, its
 * default route through the member. Pings between LAN hosts behind different members are the real
 * proof of the VPN. The member's side is the customer's LAN as it stands before HubLink (its address
 * set by the test); the PCs are not HubLink devices.
 */

/** A machine on a member's LAN. */
export interface LanHost {
  ns: string;
  /** Its address, without the prefix length ('10.10.1.10'). */
  address: string;
  /** Its default gateway: the member's LAN address. */
  gateway: string;
  /** Its interface (in its own namespace). */
  hostIf: string;
  /** The member's LAN interface (the bridge, in the member's namespace). */
  memberIf: string;
}

interface Bridge {
  name: string;
  ports: number;
}

/** Each lab's member LANs, by member namespace and address: made once, even when asked for at once. */
const bridges = new WeakMap<NetLab, Map<string, Promise<Bridge>>>();

async function bridgeFor(lab: NetLab, memberNs: string, memberAddress: string, memberIf?: string): Promise<Bridge> {
  const known = bridges.get(lab) ?? new Map<string, Promise<Bridge>>();
  bridges.set(lab, known);
  const key = `${memberNs} ${memberAddress}`;
  let bridge = known.get(key);
  if (!bridge) {
    const name = memberIf ?? `lan${[...known.keys()].filter((k) => k.startsWith(`${memberNs} `)).length}`;
    bridge = (async () => {
      await sh('ip', ['-n', memberNs, 'link', 'add', name, 'type', 'bridge', 'stp_state', '0', 'mcast_snooping', '0']);
      await sh('ip', ['-n', memberNs, 'address', 'add', memberAddress, 'dev', name]);
      await sh('ip', ['-n', memberNs, 'link', 'set', name, 'up']);
      return { name, ports: 0 };
    })();
    known.set(key, bridge);
  }
  return bridge;
}

/**
 * The member's LAN holding `memberAddress`: a bridge (`memberIf`, by default lan0, lan1, … in the
 * order the member's LANs are made) with that address, made on first use. Returns the bridge's name.
 */
export async function memberLan(lab: NetLab, memberNs: string, memberAddress: string, memberIf?: string): Promise<string> {
  return (await bridgeFor(lab, memberNs, memberAddress, memberIf)).name;
}

/**
 * Joins namespace `ns` to the member's LAN holding `memberAddress` with interface `hostIf` holding
 * `hostAddress` (CIDR). Returns the bridge's name.
 */
export async function joinLan(lab: NetLab, memberNs: string, memberAddress: string, ns: string, hostIf: string, hostAddress: string, memberIf?: string): Promise<string> {
  const bridge = await bridgeFor(lab, memberNs, memberAddress, memberIf);
  const port = `${bridge.name}p${bridge.ports++}`.slice(0, 15);
  await sh('ip', ['-n', memberNs, 'link', 'add', port, 'type', 'veth', 'peer', 'name', hostIf, 'netns', ns]);
  await sh('ip', ['-n', memberNs, 'link', 'set', port, 'master', bridge.name]);
  await sh('ip', ['-n', memberNs, 'link', 'set', port, 'up']);
  await sh('ip', ['-n', ns, 'address', 'add', hostAddress, 'dev', hostIf]);
  await sh('ip', ['-n', ns, 'link', 'set', hostIf, 'up']);
  return bridge.name;
}

/**
 * A PC on a member's LAN: a new namespace `name` on the LAN holding `memberAddress` (made if new),
 * with `hostAddress` on its eth0 and its default route through the member's address.
 */
export async function lanHost(lab: NetLab, memberNs: string, options: { name: string; memberAddress: string; hostAddress: string; memberIf?: string }): Promise<LanHost> {
  const ns = await lab.namespace(options.name);
  const memberIf = await joinLan(lab, memberNs, options.memberAddress, ns, 'eth0', options.hostAddress, options.memberIf);
  const gateway = options.memberAddress.split('/')[0]!;
  await sh('ip', ['-n', ns, 'route', 'add', 'default', 'via', gateway]);
  return { ns, address: options.hostAddress.split('/')[0]!, gateway, hostIf: 'eth0', memberIf };
}
