import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { join } from 'node:path';

/**
 * How the host primitives reach the kernel: every one of them runs its commands through this, so the
 * same code drives the machine the agent runs on or a network namespace of it.
 */
export interface HostCommands {
  /** Runs a command (with `input` on stdin) and resolves with its stdout; rejects with a CommandError. */
  run(cmd: string, args: string[], input?: string): Promise<string>;
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

function commandLine(cmd: string, args: string[]): string {
  return [cmd, ...args].join(' ');
}

/** Runs commands on the machine (and in the network namespace) the agent runs in. */
export function localHost(): HostCommands {
  return { run: (cmd, args, input) => execute(resolve(cmd), args, commandLine(cmd, args), input) };
}

/**
 * Runs commands inside network namespace `ns` (`ip netns exec ns cmd …`): for an agent in the host's
 * namespace whose device lives in a namespace. The command is resolved here, since `ip netns exec` looks
 * it up on the same PATH.
 */
export function namespaceHost(ns: string): HostCommands {
  return {
    run: (cmd, args, input) => execute(resolve('ip'), ['netns', 'exec', ns, resolve(cmd), ...args], `ip netns exec ${ns} ${commandLine(cmd, args)}`, input),
  };
}
