import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiOf, runAgentCommand, simulatedMembers } from './cli';
import { StateDir } from './state';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'hublink-agent-cli-'));
  dirs.push(d);
  return d;
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('simulate members', () => {
  it('expands --routers and --apps with the shared secret', () => {
    expect(simulatedMembers({ routers: 'shop:2', apps: 'u@acme:2', secret: 'pw' })).toEqual([
      { kind: 'router', router_name: 'shop1', secret: 'pw' },
      { kind: 'router', router_name: 'shop2', secret: 'pw' },
      { kind: 'app', login: 'u1@acme', secret: 'pw' },
      { kind: 'app', login: 'u2@acme', secret: 'pw' },
    ]);
  });

  it('reads a members file and says which entry is wrong', () => {
    const file = join(tempDir(), 'members.json');
    writeFileSync(file, JSON.stringify([{ kind: 'router', router_name: 'r1', secret: 'a' }, { kind: 'app', login: 'x@y', secret: 'b' }]));
    expect(simulatedMembers({ file })).toEqual([
      { kind: 'router', router_name: 'r1', secret: 'a' },
      { kind: 'app', login: 'x@y', secret: 'b' },
    ]);
    writeFileSync(file, JSON.stringify([{ kind: 'router', router_name: 'r1', secret: 'a' }, { kind: 'router', secret: 'b' }]));
    expect(() => simulatedMembers({ file })).toThrow(`${file}[1]`);
  });

  it('refuses a malformed count or a missing secret', () => {
    expect(() => simulatedMembers({ routers: 'shop', secret: 'pw' })).toThrow('--routers wants NAME:COUNT');
    expect(() => simulatedMembers({ routers: 'shop:0', secret: 'pw' })).toThrow('--routers wants NAME:COUNT');
    expect(() => simulatedMembers({ apps: 'nosign:3', secret: 'pw' })).toThrow('--apps wants USER@SIGN:COUNT');
    const saved = process.env.HUBLINK_SECRET;
    delete process.env.HUBLINK_SECRET;
    try {
      expect(() => simulatedMembers({ routers: 'shop:3' })).toThrow('need --secret');
    } finally {
      if (saved !== undefined) process.env.HUBLINK_SECRET = saved;
    }
  });
});

describe('state dir', () => {
  it('keeps the credential readable by its owner only, and forgets it', () => {
    const state = new StateDir(join(tempDir(), 'r1'));
    expect(state.readCredential()).toBeUndefined();
    state.saveCredential('cred-1');
    expect(state.readCredential()).toBe('cred-1');
    expect(statSync(join(state.path, 'credential')).mode & 0o777).toBe(0o600);
    state.saveCredential(undefined);
    expect(state.readCredential()).toBeUndefined();
  });
});

describe('agent --auth-source', () => {
  it('takes the server from --url unless --api is given, and refuses a router or a login beside it', async () => {
    expect(apiOf('ws://10.0.0.5:8080')).toBe('http://10.0.0.5:8080');
    expect(apiOf('wss://console.example.com/api/device/v1/ws')).toBe('https://console.example.com');
    const usage = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(await runAgentCommand(['--url', 'ws://127.0.0.1:1', '--auth-source', 'K7M2QX9P', '--router', 'r1'])).toBe(2);
      expect(await runAgentCommand(['--url', 'ws://127.0.0.1:1', '--auth-source', 'K7M2QX9P', '--login', 'u@s'])).toBe(2);
    } finally {
      usage.mockRestore();
    }
  });
});
