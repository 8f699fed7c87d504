import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { requireDataplane, sh, type NetLab, type NsProcess } from './netns';
import { FRR_DIR } from './frr';

/*
 * An internet for the data-plane laboratory: one namespace, `wan`, is the internet's router. Each device
 * gets an uplink from it (a veth pair with a /30 of 198.51.100.0/24: the wan side .1, the device .2,
 * and the device's default route through it — what DHCP would give), so everything between devices
 * crosses the wan router, where faults are made: a cut uplink, two devices that cannot see each other,
 * a lossy link.
 *
 * Like an ISP, wan drops what a device sends from an address that is not its uplink's (BCP 38): a LAN
 * behind a member reaches the internet only through the member's NAT, and spoofed() counts what was
 * dropped. wan has no default route; 203.0.113.0/24 is its own: the HubLink gateway's address
 * (203.0.113.10, port 80, carried to the test's server on the host's 127.0.0.1) and an internet host
 * (203.0.113.100) whose HTTP server answers with the address it sees the request from.
 *
 * Faults are nftables rules in wan (table inet lab), rebuilt whole on each change; `tc netem` is not
 * used (this machine's kernel has no netem qdisc): loss is nft's `numgen random`, on each direction.
 */

/**
 * Fails, naming everything missing, unless this machine can run the laboratory: what
 * requireDataplane() wants, and nft, curl, iperf3, getent and FRR (zebra, ospfd, bgpd, vtysh).
 */
export async function requireLab(): Promise<void> {
  await requireDataplane();
  const missing: string[] = [];
  for (const [tool, args] of [
    ['nft', ['--version']],
    ['curl', ['--version']],
    ['iperf3', ['--version']],
    ['getent', ['--help']],
    ['vtysh', ['--help']],
  ] as const) {
    if (!(await sh(tool, [...args]).then(() => true, () => false))) missing.push(tool);
  }
  for (const daemon of ['zebra', 'ospfd', 'bgpd']) if (!fs.existsSync(path.join(FRR_DIR, daemon))) missing.push(`${FRR_DIR}/${daemon}`);
  if (missing.length > 0) throw new Error(`the data-plane laboratory needs ${missing.join(', ')}; on Debian: apt-get install -y nftables curl iperf3 frr libc-bin`);
}

/** The HubLink gateway's address in the lab's internet: devices dial ws://203.0.113.10 (port 80). */
export const GATEWAY_ADDRESS = '203.0.113.10';
export const GATEWAY_URL = `ws://${GATEWAY_ADDRESS}`;
/** The internet host; its whoami server answers on port 80. */
export const INTERNET_HOST = '203.0.113.100';

/** A device's uplink: its address, its gateway (wan's side) and the interfaces' names. */
export interface Uplink {
  /** The name the test gave the device (wan.attach's `name`). */
  name: string;
  /** The device's namespace. */
  ns: string;
  /** The device's uplink address ('198.51.100.2'), without its /30. */
  address: string;
  /** wan's side of the /30: the device's default gateway. */
  gateway: string;
  /** The /30 ('198.51.100.0/30'). */
  prefix: string;
  /** The interface in wan. */
  wanIf: string;
  /** The interface in the device's namespace. */
  deviceIf: string;
}

/** The path from devices to the test's server: 203.0.113.10:80 in wan → a Unix socket → 127.0.0.1:<port>. */
export interface GatewayPath {
  /** What agents are given as --url. */
  url: string;
  /** Points the path at another port (a server started again). */
  retarget(port: number): void;
  /** Connections carried now. */
  readonly open: number;
  /** The devices' addresses of the connections carried now (one per connection). */
  peers(): string[];
  /** Closes every connection carried now (as a server's crash would); new ones pass. */
  reset(): void;
}

export class Wan {
  private readonly uplinks = new Map<string, Uplink>();
  private readonly cuts = new Map<string, 'link' | 'silent'>();
  private readonly losses = new Map<string, number>();
  private readonly blocks = new Set<string>();
  private forwards = 0;

  private constructor(
    private readonly lab: NetLab,
    /** The wan router's namespace. */
    readonly ns: string,
  ) {}

  /**
   * Makes the internet: the wan namespace (forwarding on), its 203.0.113.0/24 interface with the
   * gateway's and the internet host's addresses, the nft tables, and the whoami server.
   */
  static async create(lab: NetLab, name = 'wan'): Promise<Wan> {
    const wan = new Wan(lab, await lab.namespace(name));
    await lab.exec(wan.ns, 'sysctl', ['-q', '-w', 'net.ipv4.ip_forward=1']);
    await lab.lan(wan.ns, 'inet0', '203.0.113.1/24');
    for (const address of [GATEWAY_ADDRESS, INTERNET_HOST]) await sh('ip', ['-n', wan.ns, 'address', 'add', `${address}/32`, 'dev', 'inet0']);
    await wan.nft('table inet antispoof {\n  chain pre {\n    type filter hook prerouting priority -310; policy accept;\n  }\n}\n');
    await wan.apply();
    const script = writeScript(lab, 'whoami.cjs', WHOAMI);
    const whoami = lab.start(wan.ns, 'whoami', process.execPath, [script, INTERNET_HOST, '80'], lab.tempDir());
    await whoami.waitForLine(/^listening/);
    return wan;
  }

  /**
   * Gives the device in `deviceNs` an uplink: the next /30 of 198.51.100.0/24, its default route
   * through wan, and wan's anti-spoofing rule for it. `name` names it in the other calls.
   */
  async attach(deviceNs: string, name: string, options: { deviceIf?: string } = {}): Promise<Uplink> {
    if (this.uplinks.has(name)) throw new Error(`wan: ${name} is attached already`);
    const k = this.uplinks.size;
    if (k >= 64) throw new Error('wan: 198.51.100.0/24 holds 64 uplinks');
    const base = 4 * k;
    const uplink: Uplink = {
      name,
      ns: deviceNs,
      address: `198.51.100.${base + 2}`,
      gateway: `198.51.100.${base + 1}`,
      prefix: `198.51.100.${base}/30`,
      wanIf: `up${k}-${name}`.slice(0, 15),
      deviceIf: options.deviceIf ?? 'eth0',
    };
    await sh('ip', ['-n', this.ns, 'link', 'add', uplink.wanIf, 'type', 'veth', 'peer', 'name', uplink.deviceIf, 'netns', deviceNs]);
    await sh('ip', ['-n', this.ns, 'address', 'add', `${uplink.gateway}/30`, 'dev', uplink.wanIf]);
    await sh('ip', ['-n', deviceNs, 'address', 'add', `${uplink.address}/30`, 'dev', uplink.deviceIf]);
    await sh('ip', ['-n', this.ns, 'link', 'set', uplink.wanIf, 'up']);
    await sh('ip', ['-n', deviceNs, 'link', 'set', uplink.deviceIf, 'up']);
    await sh('ip', ['-n', deviceNs, 'route', 'add', 'default', 'via', uplink.gateway]);
    await this.lab.exec(this.ns, 'nft', ['add', 'rule', 'inet', 'antispoof', 'pre', 'iifname', uplink.wanIf, 'ip', 'saddr', '!=', uplink.address, 'counter', 'drop', 'comment', `"${name}"`]);
    this.uplinks.set(name, uplink);
    return uplink;
  }

  /** A device: a new namespace with a placeholder resolv.conf (NetLab.resolvConf), attached. */
  async device(name: string, options: { deviceIf?: string } = {}): Promise<Uplink> {
    return this.attach(await this.lab.namespace(name, { resolvConf: true }), name, options);
  }

  uplink(device: string): Uplink {
    const u = this.uplinks.get(device);
    if (!u) throw new Error(`wan: no device ${device}`);
    return u;
  }

  /**
   * Cuts a device off: by default its uplink goes down in wan (the device sees no carrier); `silent`
   * drops everything to and from it in wan instead, its link staying up (a path dead somewhere
   * beyond the device's sight).
   */
  async cut(device: string, options: { silent?: boolean } = {}): Promise<void> {
    const u = this.uplink(device);
    await this.restore(device);
    if (options.silent) {
      this.cuts.set(device, 'silent');
      await this.apply();
    } else {
      this.cuts.set(device, 'link');
      await sh('ip', ['-n', this.ns, 'link', 'set', u.wanIf, 'down']);
    }
  }

  /** Undoes cut(). */
  async restore(device: string): Promise<void> {
    const u = this.uplink(device);
    const how = this.cuts.get(device);
    this.cuts.delete(device);
    if (how === 'link') await sh('ip', ['-n', this.ns, 'link', 'set', u.wanIf, 'up']);
    if (how === 'silent') await this.apply();
  }

  /**
   * Drops everything between a and b in wan, both ways (each a device's name or an address, such as
   * GATEWAY_ADDRESS); everything else flows. With b left out: everything to and from a.
   */
  async block(a: string, b?: string): Promise<void> {
    this.blocks.add(this.pair(a, b));
    await this.apply();
  }

  async unblock(a: string, b?: string): Promise<void> {
    this.blocks.delete(this.pair(a, b));
    await this.apply();
  }

  /** Loses `percent` of the packets to and from a device in wan, each way on its own; 0 ends it. */
  async loss(device: string, percent: number): Promise<void> {
    this.uplink(device);
    if (!(percent >= 0 && percent <= 100)) throw new Error(`wan: loss of ${percent}%`);
    if (percent === 0) this.losses.delete(device);
    else this.losses.set(device, Math.round(percent));
    await this.apply();
  }

  /** Packets wan dropped because the device sent them from an address not its uplink's. */
  async spoofed(device: string): Promise<number> {
    const u = this.uplink(device);
    const out = await this.lab.exec(this.ns, 'nft', ['list', 'chain', 'inet', 'antispoof', 'pre']);
    const line = out.split('\n').find((l) => l.includes(`iifname "${u.wanIf}"`));
    return Number(/counter packets (\d+)/.exec(line ?? '')?.[1] ?? 0);
  }

  /** What the internet host sees a request from `ns` come from (curl to http://203.0.113.100/). */
  async whoami(ns: string): Promise<string> {
    return (await this.lab.exec(ns, 'curl', ['-sS', '--noproxy', '*', '--max-time', '5', `http://${INTERNET_HOST}/`])).trim();
  }

  /**
   * Carries TCP connections to `address`:`port` in wan (by default the gateway's, 203.0.113.10:80) to
   * the test's server on the host's 127.0.0.1:`hostPort`: a forwarder in wan hands each connection to
   * a Unix socket in the lab's directory (first a line naming the device's address and port), where
   * this process takes it on to the server. Plain TCP: WebSockets pass. The server sees the
   * connections come from 127.0.0.1; with `forwardedFor`, the first request of each connection (a
   * WebSocket's only one) gets an X-Forwarded-For header naming the device's address, which a server
   * trusting 127.0.0.1 as a proxy (HUBLINK_TRUST_PROXY, config trustProxy) takes as the client's.
   */
  async gateway(hostPort: number, options: { address?: string; port?: number; forwardedFor?: boolean } = {}): Promise<GatewayPath> {
    const address = options.address ?? GATEWAY_ADDRESS;
    const port = options.port ?? 80;
    if (!(await this.lab.exec(this.ns, 'ip', ['-o', 'address', 'show', 'dev', 'inet0'])).includes(` ${address}/`)) {
      await sh('ip', ['-n', this.ns, 'address', 'add', `${address}/32`, 'dev', 'inet0']);
    }
    let target = hostPort;
    const carried = new Map<net.Socket, string>();
    const socketPath = path.join(this.lab.tempDir(), `fwd-${this.forwards++}.sock`);
    const server = net.createServer((inner) => {
      const outer = net.connect(target, '127.0.0.1');
      carried.set(inner, '');
      for (const [a, b] of [
        [inner, outer],
        [outer, inner],
      ] as const) {
        a.on('error', () => b.destroy());
        a.on('close', () => {
          b.destroy();
          carried.delete(inner);
        });
      }
      outer.pipe(inner);
      // The forwarder's line first; then, with forwardedFor, the header after the first request line.
      let head = Buffer.alloc(0);
      let peer = '';
      let injected = !options.forwardedFor;
      const take = (chunk: Buffer) => {
        head = Buffer.concat([head, chunk]);
        if (!peer) {
          const nl = head.indexOf('\n');
          if (nl < 0) return;
          peer = head.subarray(0, nl).toString().trim();
          carried.set(inner, peer);
          head = head.subarray(nl + 1);
        }
        if (!injected) {
          const eol = head.indexOf('\r\n');
          if (eol < 0 && head.length < 8192) return;
          if (eol >= 0) head = Buffer.concat([head.subarray(0, eol + 2), Buffer.from(`X-Forwarded-For: ${peer.split(' ')[0]}\r\n`), head.subarray(eol + 2)]);
          injected = true;
        }
        inner.off('data', take);
        outer.write(head);
        inner.pipe(outer);
      };
      inner.on('data', take);
    });
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(socketPath, resolve));
    this.lab.defer(
      () =>
        new Promise<void>((resolve) => {
          for (const s of carried.keys()) s.destroy();
          server.close(() => resolve());
        }),
    );
    const script = writeScript(this.lab, 'forward.cjs', FORWARD);
    const forwarder: NsProcess = this.lab.start(this.ns, `forward ${address}:${port}`, process.execPath, [script, address, String(port), socketPath], this.lab.tempDir());
    await forwarder.waitForLine(/^listening/);
    return {
      url: port === 80 ? `ws://${address}` : `ws://${address}:${port}`,
      retarget: (p) => (target = p),
      get open() {
        return carried.size;
      },
      peers: () => [...carried.values()].filter(Boolean).map((p) => p.split(' ')[0]!),
      reset: () => {
        for (const s of carried.keys()) s.destroy();
      },
    };
  }

  private pair(a: string, b?: string): string {
    const addr = (x: string) => (this.uplinks.has(x) ? this.uplinks.get(x)!.address : x);
    if (!net.isIPv4(addr(a)) || (b !== undefined && !net.isIPv4(addr(b)))) throw new Error(`wan: block ${a} ${b ?? ''}: a device's name or an IPv4 address`);
    return b === undefined ? addr(a) : [addr(a), addr(b)].sort().join(' ');
  }

  /** Writes wan's fault rules afresh, in one transaction. */
  private async apply(): Promise<void> {
    const pre: string[] = [];
    const post: string[] = [];
    const out: string[] = [];
    for (const [device, how] of this.cuts) {
      if (how !== 'silent') continue;
      const { wanIf } = this.uplink(device);
      pre.push(`iifname "${wanIf}" drop`);
      post.push(`oifname "${wanIf}" drop`);
    }
    for (const [device, percent] of this.losses) {
      const { wanIf } = this.uplink(device);
      pre.push(`iifname "${wanIf}" numgen random mod 100 < ${percent} drop`);
      post.push(`oifname "${wanIf}" numgen random mod 100 < ${percent} drop`);
    }
    // Forwarded packets and those to wan's own addresses pass prerouting; wan's own answers, output.
    for (const pair of this.blocks) {
      const [a, b] = pair.split(' ');
      const rules = b ? [`ip saddr ${a} ip daddr ${b} drop`, `ip saddr ${b} ip daddr ${a} drop`] : [`ip saddr ${a} drop`, `ip daddr ${a} drop`];
      pre.push(...rules);
      out.push(...rules);
    }
    const chain = (name: string, hook: string, priority: number, rules: string[]) =>
      `  chain ${name} {\n    type filter hook ${hook} priority ${priority}; policy accept;\n${rules.map((r) => `    ${r}\n`).join('')}  }\n`;
    await this.nft(
      'add table inet lab\ndelete table inet lab\n' +
        `table inet lab {\n${chain('pre', 'prerouting', -300, pre)}${chain('post', 'postrouting', 300, post)}${chain('out', 'output', 0, out)}}\n`,
    );
  }

  private async nft(ruleset: string): Promise<void> {
    const file = path.join(this.lab.tempDir(), 'wan.nft');
    fs.writeFileSync(file, ruleset);
    await this.lab.exec(this.ns, 'nft', ['-f', file]);
  }
}

/** Writes one of the lab's scripts (CommonJS, run by this Node) into its directory; returns its path. */
export function writeScript(lab: NetLab, name: string, body: string): string {
  const file = path.join(lab.tempDir(), name);
  if (!fs.existsSync(file)) fs.writeFileSync(file, `'use strict';\n${body}`);
  return file;
}

/** node whoami.cjs HOST PORT: answers every HTTP request with the address it came from. */
const WHOAMI = String.raw`
const http = require('node:http');
const [host, port] = process.argv.slice(2);
const server = http.createServer((req, res) => {
  res.setHeader('content-type', 'text/plain');
  res.setHeader('connection', 'close');
  res.end(req.socket.remoteAddress.replace(/^::ffff:/, '') + '\n');
});
server.listen(Number(port), host, () => console.log('listening ' + host + ':' + port));
`;

/**
 * node forward.cjs HOST PORT SOCKET: carries each TCP connection to HOST:PORT to the Unix socket,
 * after a line naming the connection's source ('198.51.100.2 40112').
 */
const FORWARD = String.raw`
const net = require('node:net');
const [host, port, socket] = process.argv.slice(2);
const server = net.createServer((tcp) => {
  const unix = net.connect(socket);
  unix.write(tcp.remoteAddress.replace(/^::ffff:/, '') + ' ' + tcp.remotePort + '\n');
  for (const [a, b] of [[tcp, unix], [unix, tcp]]) {
    a.on('error', () => b.destroy());
    a.on('close', () => b.destroy());
    a.pipe(b);
  }
});
server.listen(Number(port), host, () => console.log('listening ' + host + ':' + port));
`;
