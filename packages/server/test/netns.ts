import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
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
 * an earlier run that crashed — and leaves those of a run still going. One lab per test file. The
 * same holds for what a lab keeps outside its namespaces: its temporary directory
 * (/tmp/hldp-4711-XXXXXX), the resolv.conf files `ip netns exec` shows its namespaces
 * (/etc/netns/hldp-4711-center/) and FRR's per-instance directories (/var/run/frr/hldp-4711-r1/).
 *
 * The data-plane laboratory builds on it: wan.ts (an internet: uplinks, faults, the gateway's address),
 * lan.ts (PCs on members' LANs), frr.ts (a customer's router running FRR), agentProcess.ts (`hublink
 * agent` in a namespace), dnsServer.ts and measure.ts (outages, throughput).
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

/** A line of a process's output, with when it came (ms since the epoch). */
export interface OutputLine {
  at: number;
  text: string;
}

/** A process started in a namespace, with its output (stdout and stderr) as it comes, whole and by line. */
export class NsProcess {
  output = '';
  /** The output's lines, each with when it came (both streams; a partial last line waits for its end). */
  readonly lines: OutputLine[] = [];
  exitCode: number | null | undefined;
  readonly exited: Promise<void>;
  readonly startedAt = Date.now();
  private readonly partial = { stdout: '', stderr: '' };
  private readonly listeners: ((line: OutputLine) => void)[] = [];
  /** Resolves when its output has ended too (after `exited`; later if something it started holds the pipes). */
  private readonly closed: Promise<void>;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    const take = (stream: 'stdout' | 'stderr') => (d: Buffer) => {
      const text = d.toString();
      this.output += text;
      const parts = (this.partial[stream] + text).split('\n');
      this.partial[stream] = parts.pop()!;
      const at = Date.now();
      for (const line of parts) this.add({ at, text: line });
    };
    child.stdout!.on('data', take('stdout'));
    child.stderr!.on('data', take('stderr'));
    this.exited = new Promise((resolve) => {
      child.on('exit', (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        resolve();
      });
      child.on('error', (err) => {
        this.output += `\n${err.message}`;
        this.add({ at: Date.now(), text: err.message });
        this.exitCode = -1;
        resolve();
      });
    });
    this.closed = new Promise((resolve) => {
      child.on('close', () => {
        this.flush();
        resolve();
      });
      child.on('error', () => resolve());
    });
  }

  private add(line: OutputLine): void {
    this.lines.push(line);
    for (const listener of this.listeners) listener(line);
  }

  /** Calls `listener` with every line from now on. */
  onLine(listener: (line: OutputLine) => void): void {
    this.listeners.push(listener);
  }

  /** Once it has exited: its output read to the end (bounded: something it started may hold the pipes). */
  async drained(): Promise<void> {
    await Promise.race([this.closed, new Promise((r) => setTimeout(r, 1000).unref())]);
    this.flush();
  }

  /** Its process id (that of the command itself: `ip netns exec` becomes it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  private flush(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream]) this.add({ at: Date.now(), text: this.partial[stream] });
      this.partial[stream] = '';
    }
  }

  /** Waits until the output matches; fails at once, with the output, if the process ends first. */
  async waitFor(pattern: RegExp, timeoutMs?: number): Promise<void> {
    let ended = false;
    try {
      await until(
        async () => {
          if (pattern.test(this.output)) return true;
          if (this.exitCode === undefined) return false;
          await this.drained();
          if (pattern.test(this.output)) return true;
          ended = true;
          throw new Error(`${this.name} ended (${this.exitCode}) before ${pattern}`);
        },
        `${this.name}: ${pattern}`,
        timeoutMs,
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}${ended ? '' : ' (still running)'}; its output:\n${this.tail()}`);
    }
  }

  /** A mark for waitForLine's `since`: the number of lines so far. */
  mark(): number {
    return this.lines.length;
  }

  /**
   * Waits for a line matching `pattern` among the lines from index `since` on (all by default) and
   * returns it; fails at once, with the output, if the process ends first.
   */
  async waitForLine(pattern: RegExp, options: { since?: number; timeoutMs?: number } = {}): Promise<OutputLine> {
    let found: OutputLine | undefined;
    let ended = false;
    try {
      await until(
        async () => {
          found = this.lines.slice(options.since ?? 0).find((l) => pattern.test(l.text));
          if (found) return true;
          if (this.exitCode === undefined) return false;
          await this.drained();
          found = this.lines.slice(options.since ?? 0).find((l) => pattern.test(l.text));
          if (found) return true;
          ended = true;
          throw new Error(`${this.name} ended (${this.exitCode}) before a line matching ${pattern}`);
        },
        `${this.name}: a line matching ${pattern}`,
        options.timeoutMs,
      );
    } catch (e) {
      throw new Error(`${(e as Error).message}${ended ? '' : ' (still running)'}; its output:\n${this.log()}`);
    }
    return found!;
  }

  tail(lines = 40): string {
    return this.output.split('\n').slice(-lines).join('\n');
  }

  /** The last lines, each with its time in seconds since the start ('  12.345 connected …'). */
  log(lines = 40): string {
    return this.lines
      .slice(-lines)
      .map((l) => `${((l.at - this.startedAt) / 1000).toFixed(3).padStart(8)} ${l.text}`)
      .join('\n');
  }

  /** SIGTERM, then SIGKILL if it has not ended after a bound. */
  async stop(boundMs = 5000): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGTERM');
    const ended = await Promise.race([this.exited.then(() => true), new Promise<false>((r) => setTimeout(() => r(false), boundMs).unref())]);
    if (!ended) {
      this.child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** SIGKILL, as a crash: what it started (openvpn) lives on until the lab removes its namespace. */
  async kill(): Promise<void> {
    if (this.exitCode !== undefined) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** Where `ip netns exec NS` finds the files it shows NS over /etc (resolv.conf, hosts). */
export const NETNS_ETC = '/etc/netns';
/** Where FRR keeps an instance's files when it is started with -N NAME. */
export const FRR_RUN = '/var/run/frr';

export class NetLab {
  private readonly namespaces: string[] = [];
  private readonly processes: NsProcess[] = [];
  private readonly steps: (() => unknown)[] = [];
  private readonly owned: string[] = [];
  private dir = '';
  private links = 0;

  /** prefix: letters, unique to the test file (e.g. 'hldp'). */
  constructor(private readonly prefix: string) {
    if (!/^[a-z]{2,8}$/.test(prefix)) throw new Error(`lab prefix '${prefix}': 2 to 8 lowercase letters`);
  }

  /** The full name of one of this lab's namespaces. */
  ns(name: string): string {
    return `${this.prefix}-${process.pid}-${name}`;
  }

  /**
   * Removes what labs of this prefix whose process has ended left behind: their namespaces (after
   * killing what runs in them), then their /etc/netns and FRR directories and their temporary
   * directories. Leaves those of a run still going. Returns what it removed.
   */
  async removeLeftovers(): Promise<string[]> {
    const pattern = new RegExp(`^${this.prefix}-(\\d+)-`);
    const dead = (name: string) => {
      const owner = pattern.exec(name)?.[1];
      return owner !== undefined && !isAlive(Number(owner));
    };
    const removed: string[] = [];
    for (const line of (await sh('ip', ['netns', 'list'])).split('\n')) {
      const name = line.split(' ')[0]!;
      if (!dead(name)) continue;
      await removeNamespace(name);
      removed.push(name);
    }
    for (const parent of [NETNS_ETC, FRR_RUN, os.tmpdir()]) {
      for (const name of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
        if (!dead(name)) continue;
        fs.rmSync(path.join(parent, name), { recursive: true, force: true });
        removed.push(path.join(parent, name));
      }
    }
    return removed;
  }

  /**
   * A new namespace with its loopback up; returns its full name. With `resolvConf` (its content, or
   * true for a placeholder naming 192.0.2.53), /etc/netns/<ns>/resolv.conf is made: what every
   * `ip netns exec` into it shows as /etc/resolv.conf (see resolvConf()).
   */
  async namespace(name: string, options: { resolvConf?: string | boolean } = {}): Promise<string> {
    const full = this.ns(name);
    if (options.resolvConf) {
      const dir = path.join(NETNS_ETC, full);
      this.owned.push(dir);
      fs.mkdirSync(dir, { recursive: true });
      const text = typeof options.resolvConf === 'string' ? options.resolvConf : `# ${full}: a lab's placeholder, until something sets it\nnameserver 192.0.2.53\n`;
      fs.writeFileSync(path.join(dir, 'resolv.conf'), text);
    }
    await sh('ip', ['netns', 'add', full]);
    this.namespaces.push(full);
    await this.exec(full, 'ip', ['link', 'set', 'lo', 'up']);
    return full;
  }

  /**
   * The file `ip netns exec NS` bind-mounts over /etc/resolv.conf when it exists (made by
   * namespace(…, { resolvConf })): a process started later in NS reads it as /etc/resolv.conf. A
   * process already running there keeps the file it was shown: one that replaces the file (a new
   * inode, by rename) is seen by later processes only.
   */
  resolvConf(ns: string): string {
    return path.join(NETNS_ETC, ns, 'resolv.conf');
  }

  /** The lab's temporary directory (/tmp/<prefix>-<pid>-XXXXXX), made on first use and removed by close(). */
  tempDir(): string {
    if (!this.dir) this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `${this.prefix}-${process.pid}-`));
    return this.dir;
  }

  /** A directory or file outside the lab's namespaces that close() removes (after the namespaces). */
  own(file: string): void {
    this.owned.push(file);
  }

  /** A step close() runs after stopping the processes, before removing the namespaces (latest first). */
  defer(step: () => unknown): void {
    this.steps.push(step);
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

  /** Starts a long-running process in a namespace, working in `cwd` (with `env` added to this process's). */
  start(ns: string, name: string, cmd: string, args: string[], cwd: string, env?: Record<string, string>): NsProcess {
    const child = spawn('ip', ['netns', 'exec', ns, cmd, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env: { ...process.env, ...env } } : {}) });
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

  /** One ping with a bound (one second by default): whether it was answered. */
  async pings(ns: string, address: string, timeoutS = 1): Promise<boolean> {
    return found('ip', ['netns', 'exec', ns, 'ping', '-n', '-c', '1', '-W', String(timeoutS), address]);
  }

  /** Waits until a ping from `ns` to `address` is answered (bounded by until()). */
  async waitForPing(ns: string, address: string): Promise<void> {
    await until(() => this.pings(ns, address), `ping from ${ns} to ${address}`);
  }

  /**
   * Stops every process (SIGTERM, SIGKILL after a bound), runs the deferred steps, removes every
   * namespace (killing what still runs in it: an agent's openvpn after a crash), then the files it
   * owns (/etc/netns/…, FRR's directories) and its temporary directory. Safe after a partial setup or
   * a failure; every step is tried, and the errors are reported together.
   */
  async close(): Promise<void> {
    await Promise.allSettled(this.processes.splice(0).map((p) => p.stop()));
    const errors: string[] = [];
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
    for (const ns of this.namespaces.splice(0)) {
      await removeNamespace(ns).catch((e: Error) => errors.push(e.message));
    }
    for (const file of [...this.owned.splice(0), ...(this.dir ? [this.dir] : [])]) {
      try {
        fs.rmSync(file, { recursive: true, force: true });
      } catch (e) {
        errors.push((e as Error).message);
      }
    }
    this.dir = '';
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
