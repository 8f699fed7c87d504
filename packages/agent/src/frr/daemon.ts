import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { isAlive, type HostCommands, type ProcessExit, type ProcessHandle } from '../host/commands';

/*
 * One FRR daemon (zebra, bgpd, ospfd) run by the agent as its child, in the foreground, with every
 * path of its own under the manager's directory: its pid file, its vty socket, zebra's zserv socket
 * and its log (stdout and stderr). FRR's default paths (/etc/frr, /var/run/frr) are never named, so
 * any number of instances (one per namespace) run side by side.
 *
 * The daemons run as uid root, not as user frr: the agent's state directory is root's and private
 * (0700), which user frr cannot reach. Only bgpd has -S (stay root, keep every capability); zebra and
 * ospfd take `-u root -g frrvty`, which keeps uid 0 but drops every capability the daemon does not
 * need (the group is the vty group FRR's privilege check insists the user belongs to). Left with uid 0
 * and no CAP_DAC_OVERRIDE, zebra and ospfd cannot remove the scratch directory FRR makes for each
 * process (/var/tmp/frr/<daemon>.<pid>, compiled in) nor write ospfd's graceful-restart file
 * (/var/run/frr/ospfd-gr.json, compiled in, only read for a graceful restart): the manager removes the
 * scratch directory when the daemon has gone, and ospfd's attempt fails harmlessly.
 */

export const DAEMONS = ['zebra', 'bgpd', 'ospfd'] as const;
export type DaemonName = (typeof DAEMONS)[number];

/** Where FRR's scratch directories are (compiled into Debian's FRR). */
export const FRR_SCRATCH_DIR = '/var/tmp/frr';
/** How long a daemon may take to answer on its vty socket (a loaded machine, a big configuration). */
const START_TIMEOUT_MS = 20_000;
const START_POLL_MS = 50;
/** How long a daemon may take to end after SIGTERM before it is killed. */
export const STOP_TIMEOUT_MS = 5_000;
/** A log larger than this is set aside when the daemon starts (one earlier log is kept). */
const LOG_ROTATE_BYTES = 4 * 1024 * 1024;

export const exitText = (exit: ProcessExit) => exit.error ?? exit.signal ?? `code ${exit.code}`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something listens on the unix socket. */
function answers(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ path });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // gone meanwhile
  }
}

export interface DaemonOptions {
  name: DaemonName;
  host: HostCommands;
  /** Where the binaries are (/usr/lib/frr). */
  frrDir: string;
  /** The manager's directory. */
  dir: string;
  /** The group zebra and ospfd run with (-g): FRR's vty group, or root where there is none. */
  group: string;
  /** The daemon ended without being asked to, after it had started. */
  onExit: (exit: ProcessExit, ranMs: number) => void;
}

export class FrrDaemon {
  private handle: ProcessHandle | null = null;
  private stopping = false;
  /** Set once it answered: an end before that is start()'s failure, not onExit's. */
  private running = false;
  private startedAt = 0;

  constructor(private readonly options: DaemonOptions) {}

  get name(): DaemonName {
    return this.options.name;
  }

  get pid(): number | null {
    return this.handle?.pid ?? null;
  }

  get logFile(): string {
    return join(this.options.dir, `${this.name}.log`);
  }

  private get vtySocket(): string {
    return join(this.options.dir, `${this.name}.vty`);
  }

  /** Its command line: everything under the manager's directory, no TCP vty port, logging to stdout. */
  args(): string[] {
    const { dir, group } = this.options;
    const user = this.name === 'bgpd' ? ['-S'] : ['-u', 'root', '-g', group];
    return [
      ...user,
      '-P', '0',
      '-f', join(dir, `${this.name}.conf`),
      '-i', join(dir, `${this.name}.pid`),
      '-z', join(dir, 'zserv.api'),
      '--vty_socket', dir,
      '--log', 'stdout',
      '--log-level', 'informational',
    ];
  }

  /** Starts the daemon and resolves once it answers on its vty socket; rejects, with its last log lines, when it ends first or never answers. */
  async start(): Promise<void> {
    const { host, frrDir, dir } = this.options;
    if (!host.spawn) throw new Error('this host cannot start processes');
    rotate(this.logFile);
    // Configured through vtysh once it answers; the file only keeps the daemon from reading FRR's own.
    writeFileSync(join(dir, `${this.name}.conf`), '! configured by the HubLink agent through vtysh: see frr.conf\n', { mode: 0o600 });
    this.stopping = false;
    this.running = false;
    this.startedAt = Date.now();
    const handle = host.spawn(join(frrDir, this.name), this.args(), { stdout: { file: this.logFile }, stderr: { file: this.logFile } });
    this.handle = handle;
    let ended: ProcessExit | null = null;
    void handle.exited.then((exit) => {
      ended = exit;
      this.cleanUp(handle.pid);
      if (this.handle === handle) this.handle = null;
      if (!this.stopping && this.running) this.options.onExit(exit, Date.now() - this.startedAt);
    });
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (ended) throw new Error(`FRR ${this.name} ended at its start (${exitText(ended)}): ${tail(this.logFile)}`);
      if (await answers(this.vtySocket)) {
        this.running = true;
        return;
      }
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`FRR ${this.name} did not answer on ${this.vtySocket} within ${START_TIMEOUT_MS / 1000} s: ${tail(this.logFile)}`);
      }
      await sleep(START_POLL_MS);
    }
  }

  /** Ends the daemon: SIGTERM, then SIGKILL after a bound. Resolves true when it had to be killed. */
  async stop(): Promise<boolean> {
    const handle = this.handle;
    this.stopping = true;
    if (!handle) return false;
    handle.kill('SIGTERM');
    const ended = await Promise.race([handle.exited.then(() => true), sleep(STOP_TIMEOUT_MS).then(() => false)]);
    if (!ended) {
      handle.kill('SIGKILL');
      await handle.exited;
    }
    return !ended;
  }

  /** What a daemon leaves behind: its pid file, its sockets and FRR's scratch directory for its pid. */
  private cleanUp(pid: number | null): void {
    for (const file of [`${this.name}.pid`, `${this.name}.vty`, ...(this.name === 'zebra' ? ['zserv.api'] : [])]) rmSync(join(this.options.dir, file), { force: true });
    if (pid !== null) rmSync(join(FRR_SCRATCH_DIR, `${this.name}.${pid}`), { recursive: true, force: true });
  }
}

function rotate(file: string): void {
  try {
    if (statSync(file).size > LOG_ROTATE_BYTES) renameSync(file, `${file}.1`);
  } catch {
    // no log yet
  }
}

/** The last lines of a log, for an error message. */
export function tail(file: string, lines = 5): string {
  try {
    const text = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join(' | ');
    return text || 'its log is empty';
  } catch {
    return 'no log';
  }
}

/**
 * Ends the FRR daemons an earlier run of the agent left running (it was killed): those named by a pid
 * file in `dir` whose command line is an FRR daemon naming `dir`. SIGTERM first, so zebra takes its
 * routes out of the kernel, then SIGKILL after a bound.
 */
export async function endLeftovers(dir: string, frrDir: string, log: (line: string) => void): Promise<void> {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.pid'));
  } catch {
    return;
  }
  const ended: { pid: number; file: string }[] = [];
  for (const file of files) {
    const pid = Number(readFileSync(join(dir, file), 'utf8').trim());
    if (!Number.isInteger(pid) || pid <= 1) continue;
    let args: string[];
    try {
      args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (!args.some((a) => a.startsWith(`${frrDir}/`)) || !args.includes(dir)) continue;
    signal(pid, 'SIGTERM');
    ended.push({ pid, file });
  }
  const deadline = Date.now() + STOP_TIMEOUT_MS;
  while (ended.some((e) => isAlive(e.pid)) && Date.now() < deadline) await sleep(START_POLL_MS);
  for (const { pid, file } of ended) {
    const killed = isAlive(pid);
    if (killed) signal(pid, 'SIGKILL');
    const name = file.replace(/\.pid$/, '');
    log(`FRR: ended ${name} ${pid}, left running by an earlier run of the agent${killed ? ' (killed: it did not end on SIGTERM)' : ''}`);
    rmSync(join(dir, file), { force: true });
    if (existsSync(join(FRR_SCRATCH_DIR, `${name}.${pid}`))) rmSync(join(FRR_SCRATCH_DIR, `${name}.${pid}`), { recursive: true, force: true });
  }
}
