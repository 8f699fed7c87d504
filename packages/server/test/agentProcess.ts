import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { NetLab, NsProcess, OutputLine } from './netns';
import { until } from './until';
import { GATEWAY_URL } from './wan';

/*
 * `hublink agent` as a device runs it: a process of its own inside the device's namespace (`ip netns
 * exec NS node packages/server/bin/hublink.mjs agent …`), starting the real OpenVPN (and FRR) there,
 * reaching the server through the lab's internet (wan.ts: ws://203.0.113.10). Its output lines are
 * kept with their times for waits and for a failure's message.
 *
 * Starting takes a few seconds: bin/hublink.mjs compiles through tsx and main.ts imports the whole
 * server before it reads its command (about 5 s to the agent's first line on this 2-core machine,
 * 10 s for three at once; tsx's cache in /tmp/tsx-0 saves little). `entry: 'agent'` starts the same
 * agent command (runAgentCommand of @hublink/agent) from a small entry of the lab's instead, without
 * the server's modules: about 1 s.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** The real CLI. */
export const HUBLINK_BIN = path.join(ROOT, 'packages/server/bin/hublink.mjs');
/** The lab's entry to the agent command alone (agentMain.mjs beside this file). */
export const AGENT_MAIN = path.join(path.dirname(fileURLToPath(import.meta.url)), 'agentMain.mjs');

export interface AgentOptions {
  /** The member's name: --router NAME, or only a label when `login` is given. */
  name: string;
  /** USER@SIGN: a software member (--login) instead of --router. */
  login?: string;
  secret: string;
  /** --state-dir; by default agent-<name> in the lab's directory. */
  stateDir?: string;
  /** --url; by default the lab's gateway (ws://203.0.113.10). */
  url?: string;
  /** More arguments, after the others (--resolv-conf FILE, …). */
  args?: string[];
  /** 'hublink' (the real CLI, default) or 'agent' (the lab's lighter entry to the same command). */
  entry?: 'hublink' | 'agent';
  /** More environment (HUBLINK_…). */
  env?: Record<string, string>;
}

/** One agent process (and those that replace it after stop, kill and start). */
export class AgentProcess {
  /** Every run's lines, in order; a run starts with a line '--- started: …'. */
  readonly lines: OutputLine[] = [];
  private current!: NsProcess;
  private runs = 0;
  readonly stateDir: string;

  constructor(
    private readonly lab: NetLab,
    readonly ns: string,
    readonly options: AgentOptions,
  ) {
    this.stateDir = options.stateDir ?? path.join(lab.tempDir(), `agent-${options.name}`);
  }

  get name(): string {
    return this.options.name;
  }

  /** The running (or last) process. */
  get process(): NsProcess {
    return this.current;
  }

  /** The command line it runs (without `ip netns exec NS`). */
  command(): string[] {
    const o = this.options;
    const entry = o.entry === 'agent' ? [AGENT_MAIN] : [HUBLINK_BIN, 'agent'];
    const who = o.login ? ['--login', o.login] : ['--router', o.name];
    return [process.execPath, ...entry, '--url', o.url ?? GATEWAY_URL, ...who, '--secret', o.secret, '--state-dir', this.stateDir, ...(o.args ?? [])];
  }

  /** Starts it (again, after stop or kill: same state directory). */
  start(): this {
    if (this.runs > 0 && this.current.exitCode === undefined) throw new Error(`agent ${this.name} is running`);
    fs.mkdirSync(this.stateDir, { recursive: true });
    const [cmd, ...args] = this.command();
    this.current = this.lab.start(this.ns, `agent ${this.name}`, cmd!, args, ROOT, this.options.env);
    this.lines.push({ at: Date.now(), text: `--- started: ${this.current.pid ?? '?'} (run ${++this.runs})` });
    this.current.onLine((line) => this.lines.push(line));
    return this;
  }

  /** A mark for waitForLine's `since`: the number of lines so far (over every run). */
  mark(): number {
    return this.lines.length;
  }

  /**
   * Waits for a line matching `pattern` from `since` on (over every run) and returns it; fails with the
   * log if the current process ends first.
   */
  async waitForLine(pattern: RegExp, options: { since?: number; timeoutMs?: number } = {}): Promise<OutputLine> {
    const find = () => this.lines.slice(options.since ?? 0).find((l) => pattern.test(l.text));
    const proc = this.current;
    let found: OutputLine | undefined;
    try {
      await until(
        async () => {
          if ((found = find())) return true;
          if (proc.exitCode === undefined) return false;
          await proc.drained();
          if ((found = find())) return true;
          throw new Error(`it ended (${proc.exitCode}) first`);
        },
        `a line matching ${pattern}`,
        options.timeoutMs,
      );
    } catch (e) {
      throw new Error(`agent ${this.name}: ${(e as Error).message}\n${this.diagnosis()}`);
    }
    return found!;
  }

  /** SIGTERM (the agent stops its tunnels and exits 0), SIGKILL after a bound. Resolves to its exit code. */
  async stop(boundMs = 10_000): Promise<number | null | undefined> {
    await this.current.stop(boundMs);
    return this.current.exitCode;
  }

  /** SIGKILL: a crash. Its openvpn processes live on in the namespace (the lab's close kills them). */
  async kill(): Promise<void> {
    await this.current.kill();
  }

  /** Its lines with their times (seconds since its first start), and its openvpn logs' tails. */
  diagnosis(lines = 40, logLines = 25): string {
    const t0 = this.lines[0]?.at ?? Date.now();
    const out = [`--- agent ${this.name} in ${this.ns}${this.current.exitCode === undefined ? '' : ` (ended: ${this.current.exitCode})`}:`];
    out.push(...this.lines.slice(-lines).map((l) => `${((l.at - t0) / 1000).toFixed(3).padStart(8)} ${l.text}`));
    for (const file of logFiles(this.stateDir)) {
      // The agent reads each server's client list every second: those commands are noise here.
      const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => !l.includes("MANAGEMENT: CMD 'status 3'"));
      out.push(`--- ${path.relative(this.stateDir, file)}:`, ...lines.slice(-logLines));
    }
    return out.join('\n');
  }
}

/** The .log files under a state directory (openvpn's, one per tunnel). */
function logFiles(dir: string, depth = 2): string[] {
  if (depth < 0 || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return logFiles(p, depth - 1);
    return e.name.endsWith('.log') ? [p] : [];
  });
}

/**
 * Starts `hublink agent` in namespace `ns`: --url (the lab's gateway by default), --router NAME or
 * --login USER@SIGN, --secret, --state-dir, then `args`.
 */
export function startAgent(lab: NetLab, ns: string, options: AgentOptions): AgentProcess {
  return new AgentProcess(lab, ns, options).start();
}
