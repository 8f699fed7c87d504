import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { until } from './until';

/*
 * A small laboratory of Linux network namespaces for data-plane tests (docs/testing.md): namespaces
 * joined by veth pairs with addresses from 192.0.2.0/24 (TEST-NET-1) and no route out, processes
 * started inside them (openvpn), and waits on conditions (a log line, a ping) with a bound.
 *
 * Every name carries the lab's prefix and the pid of the process that made it ('hldp-4711-center'):
 * a new lab removes the namespaces (and kills the processes in them) of labs whose process is gone —
 * an earlier run that crashed — and leaves those of a run still going. One lab per test file.
 */

const run = promisify(execFile);

/** Runs a command; on failure the error names it and carries its output. */
export async function sh(cmd: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(cmd, args, { encoding: 'utf8' });
    return stdout;
  } catch (e) {
    const err = e as { stderr?: string; stdout?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed: ${(err.stderr || err.stdout || err.message).trim()}`);
  }
}

async function found(cmd: string, args: string[]): Promise<boolean> {
  try {
    await run(cmd, args);
    return true;
  } catch {
    return false;
  }
}

/**
 * Fails, naming everything that is missing, unless this machine can run the data-plane tests: root,
 * /dev/net/tun, and openvpn, ip and ping (Debian: apt-get install -y openvpn iproute2 iputils-ping).
 */
export async function requireDataplane(): Promise<void> {
  const missing: string[] = [];
  if (process.getuid?.() !== 0) missing.push('root (network namespaces need CAP_NET_ADMIN)');
  if (!fs.existsSync('/dev/net/tun') || !fs.statSync('/dev/net/tun').isCharacterDevice()) missing.push('the tun device /dev/net/tun');
  if (!(await found('openvpn', ['--version']))) missing.push('openvpn');
  if (!(await found('ip', ['-V']))) missing.push('ip (iproute2)');
  if (!(await found('ping', ['-V']))) missing.push('ping (iputils-ping)');
  if (missing.length > 0) {
    throw new Error(`the data-plane tests need ${missing.join(', ')}; on Debian: apt-get install -y openvpn iproute2 iputils-ping, and run as root`);
  }
}

/** A process started in a namespace, with its output (stdout and stderr) as it comes. */
export class NsProcess {
  output = '';
  exitCode: number | null | undefined;
  readonly exited: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    child.stdout!.on('data', (d: Buffer) => (this.output += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (this.output += d.toString()));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        resolve();
      });
      child.on('error', (err) => {
        this.output += `\n${err.message}`;
        this.exitCode = -1;
        resolve();
      });
    });
  }

  /** Waits until the output matches; fails at once, with the output, if the process ends first. */
  async waitFor(pattern: RegExp): Promise<void> {
    let ended = false;
    try {
      await until(() => {
        if (pattern.test(this.output)) return true;
        if (this.exitCode === undefined) return false;
        ended = true;
        throw new Error(`${this.name} ended (${this.exitCode}) before ${pattern}`);
      }, `${this.name}: ${pattern}`);
    } catch (e) {
      throw new Error(`${(e as Error).message}${ended ? '' : ' (still running)'}; its output:\n${this.tail()}`);
    }
  }

  tail(lines = 40): string {
    return this.output.split('\n').slice(-lines).join('\n');
  }

  /** SIGTERM, then SIGKILL if it has not ended after a bound. */
  async stop(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const ended = await Promise.race([this.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), 5000).unref())]);
    if (!ended) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }
}

export class NetLab {
  private readonly namespaces: string[] = [];
  private readonly processes: NsProcess[] = [];
  private links = 0;

  /** prefix: letters, unique to the test file (e.g. 'hldp'). */
  constructor(private readonly prefix: string) {
    if (!/^[a-z]{2,8}$/.test(prefix)) throw new Error(`lab prefix '${prefix}': 2 to 8 lowercase letters`);
  }

  /** The full name of one of this lab's namespaces. */
  ns(name: string): string {
    return `${this.prefix}-${process.pid}-${name}`;
  }

  /** Removes the namespaces, and what runs in them, of this prefix's labs whose process has ended. */
  async removeLeftovers(): Promise<string[]> {
    const pattern = new RegExp(`^${this.prefix}-(\\d+)-`);
    const removed: string[] = [];
    for (const line of (await sh('ip', ['netns', 'list'])).split('\n')) {
      const name = line.split(' ')[0]!;
      const owner = pattern.exec(name)?.[1];
      if (!owner || isAlive(Number(owner))) continue;
      await removeNamespace(name);
      removed.push(name);
    }
    return removed;
  }

  /** A new namespace with its loopback up; returns its full name. */
  async namespace(name: string): Promise<string> {
    const full = this.ns(name);
    await sh('ip', ['netns', 'add', full]);
    this.namespaces.push(full);
    await this.exec(full, 'ip', ['link', 'set', 'lo', 'up']);
    return full;
  }

  /**
   * A veth pair between two namespaces, made inside them (no name in the host's namespace), each end
   * with its address (CIDR, from 192.0.2.0/24) and up. Returns the names of the two ends.
   */
  async link(a: string, addressA: string, b: string, addressB: string): Promise<[string, string]> {
    const n = this.links++;
    const [endA, endB] = [`veth${n}a`, `veth${n}b`];
    await sh('ip', ['-n', a, 'link', 'add', endA, 'type', 'veth', 'peer', 'name', endB, 'netns', b]);
    for (const [ns, end, address] of [
      [a, endA, addressA],
      [b, endB, addressB],
    ] as const) {
      await sh('ip', ['-n', ns, 'address', 'add', address, 'dev', end]);
      await sh('ip', ['-n', ns, 'link', 'set', end, 'up']);
    }
    return [endA, endB];
  }

  /**
   * An interface holding an address: a LAN behind a member. It is one end of a veth pair whose other
   * end stays in the same namespace, not a dummy interface: containers often lack the dummy driver and
   * cannot load it, and the veth driver is needed anyway.
   */
  async lan(ns: string, name: string, address: string): Promise<void> {
    await sh('ip', ['-n', ns, 'link', 'add', name, 'type', 'veth', 'peer', 'name', `${name}p`]);
    await sh('ip', ['-n', ns, 'address', 'add', address, 'dev', name]);
    for (const end of [name, `${name}p`]) await sh('ip', ['-n', ns, 'link', 'set', end, 'up']);
  }

  exec(ns: string, cmd: string, args: string[]): Promise<string> {
    return sh('ip', ['netns', 'exec', ns, cmd, ...args]);
  }

  /** Starts a long-running process in a namespace, working in `cwd`. */
  start(ns: string, name: string, cmd: string, args: string[], cwd: string): NsProcess {
    const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const proc = new NsProcess(name, child);
    this.processes.push(proc);
    return proc;
  }

  /**
   * An executable that runs `openvpn <args>` inside namespace `ns`, for an agent that runs in the host's
   * namespace (OpenvpnDevice's `binary`). The agent reads openvpn's management port on the host's
   * 127.0.0.1, which a namespaced openvpn cannot listen on: the runner has openvpn listen on a Unix
   * socket in `dir` instead (a path, so reachable from both namespaces) and forwards the agent's TCP
   * port to it. Signals go to openvpn; the runner ends with it. Returns the executable's path.
   */
  openvpnRunner(ns: string, dir: string): string {
    const file = path.join(dir, `openvpn-${ns}.cjs`);
    fs.writeFileSync(file, `#!${process.execPath}\n'use strict';\nconst NS = ${JSON.stringify(ns)};\nconst DIR = ${JSON.stringify(dir)};\n${RUNNER}`, { mode: 0o755 });
    return file;
  }

  /** One ping with a one-second bound: whether it was answered. */
  async pings(ns: string, address: string): Promise<boolean> {
    return found('ip', ['netns', 'exec', ns, 'ping', '-n', '-c', '1', '-W', '1', address]);
  }

  /** Waits until a ping from `ns` to `address` is answered (bounded by until()). */
  async waitForPing(ns: string, address: string): Promise<void> {
    await until(() => this.pings(ns, address), `ping from ${ns} to ${address}`);
  }

  /** Stops every process and removes every namespace of the lab; safe after a partial setup or a failure. */
  async close(): Promise<void> {
    await Promise.allSettled(this.processes.map((p) => p.stop()));
    const errors: string[] = [];
    for (const ns of this.namespaces.splice(0)) {
      await removeNamespace(ns).catch((e: Error) => errors.push(e.message));
    }
    if (errors.length > 0) throw new Error(`lab cleanup: ${errors.join('; ')}`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Kills what still runs in a namespace and deletes it (its interfaces go with it). */
async function removeNamespace(ns: string): Promise<void> {
  const pids = (await sh('ip', ['netns', 'pids', ns]).catch(() => '')).split(/\s+/).filter(Boolean);
  for (const pid of pids) {
    try {
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await sh('ip', ['netns', 'del', ns]);
}

/** The body of openvpnRunner's script (CommonJS, run by this Node); NS and DIR are defined before it. */
const RUNNER = String.raw`
const { spawn } = require('node:child_process');
const net = require('node:net');
const path = require('node:path');

const args = process.argv.slice(2);
const at = args.indexOf('--management');
let port = 0;
let socket = '';
if (at >= 0) {
  port = Number(args[at + 2]);
  socket = path.join(DIR, 'mgmt-' + process.pid + '.sock');
  args.splice(at, 3, '--management', socket, 'unix');
}
let ended = false;
const child = spawn('ip', ['netns', 'exec', NS, 'openvpn', ...args], { stdio: 'inherit' });
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => child.kill(signal));

// openvpn makes its socket a moment after it starts: a connection waits for it (bounded).
const server = net.createServer((tcp) => {
  tcp.on('error', () => tcp.destroy());
  const attempt = (left) => {
    const unix = net.connect(socket);
    unix.once('error', () => {
      if (ended || left === 0 || tcp.destroyed) return tcp.destroy();
      setTimeout(() => attempt(left - 1), 50);
    });
    unix.once('connect', () => {
      unix.removeAllListeners('error');
      unix.on('error', () => tcp.destroy());
      unix.on('close', () => tcp.destroy());
      tcp.on('close', () => unix.destroy());
      tcp.pipe(unix);
      unix.pipe(tcp);
    });
  };
  attempt(600);
});
// A port taken meanwhile: end openvpn, so the agent starts it again on another.
server.on('error', () => child.kill('SIGTERM'));
if (port) server.listen(port, '127.0.0.1');
child.on('exit', (code) => {
  ended = true;
  server.close();
  process.exit(code === null ? 1 : code);
});
`;
