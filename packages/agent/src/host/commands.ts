import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, closeSync, constants, openSync } from 'node:fs';
import { join } from 'node:path';

/**
 * How the host primitives reach the kernel: every one of them runs its commands through this, so the
 * same code drives the machine the agent runs on or a network namespace of it.
 */
export interface HostCommands {
  /** Runs a command (with `input` on stdin) and resolves with its stdout; rejects with a CommandError. */
  run(cmd: string, args: string[], input?: string): Promise<string>;
  /**
   * Starts a long-running process (a routing daemon) and returns at once; its output goes where
   * `options` says. Optional so a fake host that only records commands stays small: what needs it
   * says so when it is missing.
   */
  spawn?(cmd: string, args: string[], options?: SpawnOptions): ProcessHandle;
}

/** Where a started process's output goes: appended to a file, or handed over line by line. */
export type OutputSink = { file: string } | { line: (line: string) => void };

export interface SpawnOptions {
  /** Default: discarded. */
  stdout?: OutputSink;
  /** Default: discarded. */
  stderr?: OutputSink;
}

/** How a started process ended: its exit code or signal, or why it could not start at all. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Set when the process never ran (the binary is missing, say). */
  error: string | null;
}

export interface ProcessHandle {
  /** Null when the process could not be started (`exited` then says why). */
  readonly pid: number | null;
  /** Resolves once, when the process has ended (never rejects). */
  readonly exited: Promise<ProcessExit>;
  /** Signals the process (SIGTERM by default); nothing once it has ended, so a reused pid is never hit. */
  kill(signal?: NodeJS.Signals): void;
}

/** A command that failed: its message names the command line and carries its stderr. */
export class CommandError extends Error {
  constructor(
    readonly command: string,
    readonly stderr: string,
    readonly exitCode: number | null,
  ) {
    super(`${command} failed (${exitCode ?? 'killed'}): ${stderr.trim() || 'no output'}`);
    this.name = 'CommandError';
  }
}

/** Debian keeps ip, nft and sysctl in /usr/sbin and /sbin, which a service's or a user's PATH may lack. */
const SYSTEM_DIRS = ['/usr/local/sbin', '/usr/sbin', '/sbin'];

/** A bound on any one command: a wedged resolvectl (D-Bus) must not hang the agent for good. */
const COMMAND_TIMEOUT_MS = 30_000;

const found = new Map<string, string>();

/** The executable's full path on PATH or in the system directories, or null. */
export function findCommand(name: string, path = process.env.PATH ?? ''): string | null {
  if (name.includes('/')) return name;
  for (const dir of [...path.split(':').filter(Boolean), ...SYSTEM_DIRS]) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** The command's full path when it can be found (cached), else its name, which then fails as ENOENT. */
function resolve(name: string): string {
  let file = found.get(name);
  if (!file) {
    file = findCommand(name) ?? name;
    if (file !== name) found.set(name, file);
  }
  return file;
}

function execute(cmd: string, args: string[], shown: string, input?: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    // The C locale keeps the tools' error messages in English, which callers match (e.g. "No such process").
    const child = spawn(cmd, args, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['pipe', 'pipe', 'pipe'], timeout: COMMAND_TIMEOUT_MS });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', (err) => reject(new CommandError(shown, err.message, null)));
    child.on('close', (code) => (code === 0 ? resolvePromise(stdout) : reject(new CommandError(shown, stderr || stdout, code))));
    // A command that exits without reading its input closes the pipe: that is its exit status's business.
    child.stdin.on('error', () => {});
    child.stdin.end(input ?? '');
  });
}

/** Hands a stream's text over line by line (a last line without a newline too, at its end). */
function splitLines(stream: NodeJS.ReadableStream, line: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    const parts = (rest + chunk).split('\n');
    rest = parts.pop()!;
    for (const part of parts) line(part);
  });
  stream.on('end', () => {
    if (rest) line(rest);
    rest = '';
  });
}

function startProcess(file: string, args: string[], options: SpawnOptions = {}): ProcessHandle {
  const opened: number[] = [];
  const target = (sink: OutputSink | undefined): 'ignore' | 'pipe' | number => {
    if (!sink) return 'ignore';
    if ('line' in sink) return 'pipe';
    const fd = openSync(sink.file, 'a');
    opened.push(fd);
    return fd;
  };
  let child: ChildProcess;
  try {
    child = spawn(file, args, { env: { ...process.env, LC_ALL: 'C' }, stdio: ['ignore', target(options.stdout), target(options.stderr)] });
  } finally {
    // The child has its own copies of the files' descriptors.
    for (const fd of opened) closeSync(fd);
  }
  if (options.stdout && 'line' in options.stdout && child.stdout) splitLines(child.stdout, options.stdout.line);
  if (options.stderr && 'line' in options.stderr && child.stderr) splitLines(child.stderr, options.stderr.line);
  let error: string | null = null;
  child.once('error', (e) => (error = e.message));
  // 'close' comes after 'exit' (and after the output pipes are drained), or after 'error' when nothing ran.
  const exited = new Promise<ProcessExit>((resolve) => child.once('close', (code, signal) => resolve({ code, signal, error })));
  return {
    pid: child.pid ?? null,
    exited,
    kill: (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

function commandLine(cmd: string, args: string[]): string {
  return [cmd, ...args].join(' ');
}

/** Runs commands on the machine (and in the network namespace) the agent runs in. */
export function localHost(): HostCommands {
  return {
    run: (cmd, args, input) => execute(resolve(cmd), args, commandLine(cmd, args), input),
    spawn: (cmd, args, options) => startProcess(resolve(cmd), args, options),
  };
}

/**
 * Runs commands inside network namespace `ns` (`ip netns exec ns cmd …`): for an agent in the host's
 * namespace whose device lives in a namespace. The command is resolved here, since `ip netns exec` looks
 * it up on the same PATH.
 */
export function namespaceHost(ns: string): HostCommands {
  return {
    run: (cmd, args, input) => execute(resolve('ip'), ['netns', 'exec', ns, resolve(cmd), ...args], `ip netns exec ${ns} ${commandLine(cmd, args)}`, input),
    // `ip netns exec` execs the command in place (it forks only with -b): the pid is the command's own.
    spawn: (cmd, args, options) => startProcess(resolve('ip'), ['netns', 'exec', ns, resolve(cmd), ...args], options),
  };
}

/** Whether a process of that pid exists (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
