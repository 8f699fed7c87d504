import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localHost, namespaceHost } from './commands';
import { HostLab, requireHostTools } from './testLab';

/*
 * HostCommands.spawn (host/commands.ts), which the FRR manager starts its daemons with: long-running
 * processes whose output goes to a file or line by line, on the machine or in a namespace.
 */

describe('starting long-running processes', () => {
  const lab = new HostLab('hlspawn');
  let tmp = '';

  beforeAll(async () => {
    requireHostTools();
    await lab.removeLeftovers();
    tmp = mkdtempSync(join(tmpdir(), 'hublink-spawn-'));
  });
  afterAll(async () => {
    await lab.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('hands stdout over line by line, the last line without a newline too, and says how the process ended', async () => {
    const lines: string[] = [];
    const errors: string[] = [];
    const p = localHost().spawn!('sh', ['-c', 'printf "one\\ntwo\\nthree"; echo oops >&2; exit 3'], { stdout: { line: (l) => lines.push(l) }, stderr: { line: (l) => errors.push(l) } });
    expect(p.pid).toBeGreaterThan(1);
    expect(await p.exited).toEqual({ code: 3, signal: null, error: null });
    expect(lines).toEqual(['one', 'two', 'three']);
    expect(errors).toEqual(['oops']);
  });

  it('appends stdout and stderr to a file, and is ended by a signal', async () => {
    const file = join(tmp, 'out.log');
    const p = localHost().spawn!('sh', ['-c', 'echo started; echo to-stderr >&2; exec sleep 30'], { stdout: { file }, stderr: { file } });
    await expect.poll(() => readFileSync(file, 'utf8')).toContain('to-stderr');
    p.kill();
    expect(await p.exited).toEqual({ code: null, signal: 'SIGTERM', error: null });
    // Ended: signalling it again does nothing (its pid may be someone else's by now).
    p.kill('SIGKILL');
    const again = localHost().spawn!('sh', ['-c', 'echo second'], { stdout: { file } });
    await again.exited;
    expect(readFileSync(file, 'utf8').split('\n').filter(Boolean).sort()).toEqual(['second', 'started', 'to-stderr']);
  });

  it('says why a process could not start', async () => {
    const p = localHost().spawn!('hublink-no-such-daemon', []);
    expect(p.pid).toBeNull();
    expect((await p.exited).error).toMatch(/ENOENT/);
  });

  it('runs the process inside a namespace, its pid its own (ip netns exec execs it in place)', async () => {
    const ns = await lab.namespace('n');
    const lines: string[] = [];
    const p = namespaceHost(ns).spawn!('sh', ['-c', 'ip -o link show | cut -d: -f2; exec sleep 30'], { stdout: { line: (l) => lines.push(l.trim()) } });
    await expect.poll(() => lines).toEqual(['lo']);
    expect(readFileSync(`/proc/${p.pid}/cmdline`, 'utf8').split('\0')[0]).toBe('sleep');
    p.kill('SIGKILL');
    expect((await p.exited).signal).toBe('SIGKILL');
  });
});
