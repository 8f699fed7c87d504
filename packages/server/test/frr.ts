import fs from 'node:fs';
import path from 'node:path';
import { FRR_RUN, sh, type NetLab, type NsProcess } from './netns';
import { joinLan, type LanHost } from './lan';
import { until } from './until';

/*
 * A customer's router on a member's LAN, running FRRouting (zebra, ospfd, optionally bgpd from
 * /usr/lib/frr) in a namespace of its own, with networks behind it: the routes a member with dynamic
 * routing should learn. Configured by the test, as a customer configures their own router; HubLink
 * configures only the member.
 *
 * Each instance has its own path space (-N <its namespace's name>) and keeps everything in FRR's
 * directory for it, /var/run/frr/<name> (owned by user frr, which the daemons run as; a crashed run's
 * is found by the lab's prefix): configuration files, pid files, its own zserv socket and vty sockets.
 * The daemons run in the foreground, as the lab's processes, and log to stdout. `vtysh --vty_socket DIR` reads it (not
 * with -N: vtysh then wants /etc/frr/<name>/vtysh.conf). ospfd writes /var/run/frr/ospfd-gr.json
 * whatever -N says: shared by every instance, harmless without graceful restart.
 */

export const FRR_DIR = '/usr/lib/frr';

export interface FrrOptions {
  /** The router's name (its namespace's, and FRR's hostname). */
  name: string;
  /** The member's LAN address (CIDR) the router sits on: the LAN is made if new (lan.ts). */
  memberAddress: string;
  /** The router's address on that LAN (CIDR), its OSPF router id. */
  address: string;
  /** Addresses (CIDR) of the networks behind it, one interface each (net0, net1, …). */
  networks?: string[];
  /** A PC on each network (its .10), reachable through the router. */
  hosts?: boolean;
  /**
   * OSPF on the LAN interface, area 0, connected networks redistributed; false: none. hello and dead
   * in seconds (FRR's defaults 10 and 40; both ends of a LAN must agree, or they never become
   * neighbours). `fast`: this router originates and computes at once (LSA and SPF throttles 0,
   * retransmits every second) instead of after FRR's default waits (an LSA at most every 5 s, DBD
   * retransmits after 5 s: some 20 s from neighbours to routes instead of 5); it changes nothing the
   * other end must match.
   */
  ospf?: false | { area?: string; hello?: number; dead?: number; fast?: boolean };
  /** BGP with these neighbours, connected networks redistributed. */
  bgp?: { asn: number; neighbors: { address: string; asn: number }[] };
  /** Its default route through the member (true by default). */
  defaultRoute?: boolean;
  /** The member's LAN bridge's name, if new (lan.ts). */
  memberIf?: string;
}

export class FrrRouter {
  /** The networks behind it: address (CIDR) → interface. */
  readonly networks = new Map<string, string>();
  /** The PCs behind it (with `hosts`), by network address. */
  readonly hosts = new Map<string, LanHost>();
  readonly daemons: NsProcess[] = [];
  private next = 0;

  constructor(
    private readonly lab: NetLab,
    readonly ns: string,
    /** The name the test gave it. */
    readonly name: string,
    /** Its LAN address (without the prefix length). */
    readonly address: string,
    /** Its interface on the member's LAN. */
    readonly lanIf: string,
    /** Its files and vty sockets. */
    readonly dir: string,
  ) {}

  /** Runs vtysh commands against this instance ('show ip ospf neighbor'; 'conf t', 'interface net0', 'shutdown'). */
  async vtysh(...commands: string[]): Promise<string> {
    return sh('vtysh', ['--vty_socket', this.dir, ...commands.flatMap((c) => ['-c', c])]);
  }

  /**
   * Adds a network behind the router, announced while up: an interface holding `address` (one end of
   * a veth pair; with `host`, a bridge with a PC's link on it, the PC at the network's .10).
   */
  async addNetwork(address: string, options: { host?: boolean } = {}): Promise<string> {
    const n = this.next++;
    const ifname = `net${n}`;
    if (!options.host) {
      await this.lab.lan(this.ns, ifname, address);
    } else {
      const ns = await this.lab.namespace(`${this.name}-h${n}`);
      const hostAddress = withHost(address, 10);
      await sh('ip', ['-n', this.ns, 'link', 'add', ifname, 'type', 'bridge', 'stp_state', '0']);
      await sh('ip', ['-n', this.ns, 'address', 'add', address, 'dev', ifname]);
      await sh('ip', ['-n', this.ns, 'link', 'add', `${ifname}p`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns]);
      await sh('ip', ['-n', this.ns, 'link', 'set', `${ifname}p`, 'master', ifname]);
      for (const end of [`${ifname}p`, ifname]) await sh('ip', ['-n', this.ns, 'link', 'set', end, 'up']);
      await sh('ip', ['-n', ns, 'address', 'add', hostAddress, 'dev', 'eth0']);
      await sh('ip', ['-n', ns, 'link', 'set', 'eth0', 'up']);
      const gateway = address.split('/')[0]!;
      await sh('ip', ['-n', ns, 'route', 'add', 'default', 'via', gateway]);
      this.hosts.set(address, { ns, address: hostAddress.split('/')[0]!, gateway, hostIf: 'eth0', memberIf: ifname });
    }
    this.networks.set(address, ifname);
    return ifname;
  }

  /** Removes a network (its interface, with its host's link): withdrawn. */
  async removeNetwork(address: string): Promise<void> {
    const ifname = this.networks.get(address);
    if (!ifname) throw new Error(`${this.ns}: no network ${address}`);
    await sh('ip', ['-n', this.ns, 'link', 'del', ifname]);
    // A bridge leaves its port behind (a veth pair goes whole).
    await sh('ip', ['-n', this.ns, 'link', 'del', `${ifname}p`]).catch(() => '');
    this.networks.delete(address);
  }

  /** Takes a network's interface down (withdrawn) or up (announced again). */
  async setNetwork(address: string, up: boolean): Promise<void> {
    const ifname = this.networks.get(address);
    if (!ifname) throw new Error(`${this.ns}: no network ${address}`);
    await sh('ip', ['-n', this.ns, 'link', 'set', ifname, up ? 'up' : 'down']);
  }

  /** The router's kernel routes ('ip route'): what it learned shows as `proto ospf` / `proto bgp`. */
  async routes(): Promise<string> {
    return sh('ip', ['-n', this.ns, 'route']);
  }

  /** Its daemons' output, for a failure's message. */
  log(lines = 20): string {
    return this.daemons.map((d) => `--- ${d.name}:\n${d.log(lines)}`).join('\n');
  }
}

/** '10.10.5.1/24' with host part `n`: '10.10.5.10/24'. */
function withHost(cidr: string, n: number): string {
  const [address, length] = cidr.split('/');
  const parts = address!.split('.').map(Number);
  parts[3] = n;
  return `${parts.join('.')}/${length}`;
}

/** The network of a CIDR address ('10.10.1.2/24' → '10.10.1.0/24'). */
export function networkOf(cidr: string): string {
  const [address, length] = cidr.split('/');
  const bits = Number(length);
  const value = address!.split('.').reduce((v, p) => (v << 8) | Number(p), 0) >>> 0;
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  const net = (value & mask) >>> 0;
  return `${[24, 16, 8, 0].map((s) => (net >>> s) & 255).join('.')}/${bits}`;
}

/**
 * Starts a customer's router on the member's LAN: its namespace, its LAN interface (lan0, default
 * route through the member unless told not to), its networks, and zebra with ospfd (and bgpd) once
 * each daemon's vty socket is there.
 */
export async function frrRouter(lab: NetLab, memberNs: string, options: FrrOptions): Promise<FrrRouter> {
  for (const daemon of ['zebra', 'ospfd', 'bgpd']) {
    if (!fs.existsSync(path.join(FRR_DIR, daemon))) throw new Error(`${FRR_DIR}/${daemon} missing: apt-get install -y frr`);
  }
  const ns = await lab.namespace(options.name);
  // A router forwards (zebra leaves the sysctl as it finds it).
  await lab.exec(ns, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
  const lanIf = 'lan0';
  await joinLan(lab, memberNs, options.memberAddress, ns, lanIf, options.address, options.memberIf);
  if (options.defaultRoute !== false) await sh('ip', ['-n', ns, 'route', 'add', 'default', 'via', options.memberAddress.split('/')[0]!]);

  // FRR's own directory for the instance (-N): the daemons, as user frr, reach it (not the lab's, 0700).
  const dir = path.join(FRR_RUN, ns);
  lab.own(dir);
  fs.mkdirSync(dir, { recursive: true });
  const router = new FrrRouter(lab, ns, options.name, options.address.split('/')[0]!, lanIf, dir);
  for (const network of options.networks ?? []) await router.addNetwork(network, { host: options.hosts });

  const routerId = router.address;
  const confs: Record<string, string> = { zebra: `hostname ${options.name}\nlog stdout informational\n` };
  if (options.ospf !== false) {
    const o = options.ospf ?? {};
    confs.ospfd = [
      `hostname ${options.name}`,
      'log stdout informational',
      `interface ${lanIf}`,
      ...(o.hello ? [` ip ospf hello-interval ${o.hello}`] : []),
      ...(o.dead ? [` ip ospf dead-interval ${o.dead}`] : []),
      ...(o.fast ? [' ip ospf retransmit-interval 1'] : []),
      'router ospf',
      ` ospf router-id ${routerId}`,
      ...(o.fast ? [' timers throttle lsa all 0', ' timers lsa min-arrival 0', ' timers throttle spf 0 50 1000'] : []),
      ' redistribute connected',
      ` network ${networkOf(options.address)} area ${o.area ?? '0'}`,
      '',
    ].join('\n');
  }
  if (options.bgp) {
    confs.bgpd = [
      `hostname ${options.name}`,
      'log stdout informational',
      `router bgp ${options.bgp.asn}`,
      ` bgp router-id ${routerId}`,
      ' no bgp ebgp-requires-policy',
      ...options.bgp.neighbors.map((n) => ` neighbor ${n.address} remote-as ${n.asn}`),
      ' address-family ipv4 unicast',
      '  redistribute connected',
      ' exit-address-family',
      '',
    ].join('\n');
  }
  const frr = await sh('id', ['-u', 'frr']).then(Number);
  const frrGroup = await sh('id', ['-g', 'frr']).then(Number);
  fs.chownSync(dir, frr, frrGroup);
  for (const [daemon, text] of Object.entries(confs)) {
    const file = path.join(dir, `${daemon}.conf`);
    fs.writeFileSync(file, text);
    fs.chownSync(file, frr, frrGroup);
  }
  for (const daemon of Object.keys(confs)) {
    const args = ['-N', ns, '-f', path.join(dir, `${daemon}.conf`), '-i', path.join(dir, `${daemon}.pid`), '-z', path.join(dir, 'zserv.api'), '--vty_socket', dir];
    const proc = lab.start(ns, `${options.name} ${daemon}`, path.join(FRR_DIR, daemon), args, dir);
    router.daemons.push(proc);
    const vty = path.join(dir, `${daemon}.vty`);
    try {
      await until(() => {
        if (proc.exitCode !== undefined) throw new Error(`${daemon} ended (${proc.exitCode})`);
        return fs.existsSync(vty);
      }, `${options.name}: ${daemon}'s vty socket`);
    } catch (e) {
      throw new Error(`${(e as Error).message}\n${router.log()}`);
    }
  }
  return router;
}
