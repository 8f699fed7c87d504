import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { signInWithSource } from './authSource';
import { DeviceClient, deviceUrl, type Identity } from './client';
import { localHost } from './host/commands';
import type { DnsMethod } from './host/dns';
import type { Device } from './device';
import { findOpenvpn, OpenvpnDevice } from './openvpn/device';
import { Relay } from './relay/relay';
import { SimulatedDevice } from './simulated';
import { simulate, type SimulatedMember } from './simulator';
import { defaultStateDir, StateDir } from './state';

export const AGENT_USAGE = `usage: hublink agent --url ws://HOST[:PORT] (--router NAME | --login USER@SIGN) --secret S [--state-dir DIR] [--simulate] [--dns METHOD] [--resolv-conf FILE]
       hublink agent --url ws://HOST[:PORT] --auth-source ID_CODE [--source ID|NAME] [--api http(s)://HOST[:PORT]] [--state-dir DIR] [--simulate]
  The secret may come from HUBLINK_SECRET instead of --secret. --auth-source signs a member in through the tenant's
  sign-in source (enterprise WeChat, Feishu, DingTalk) in a browser; --api defaults to --url's host.
  Runs OpenVPN when it is on PATH, else simulates. With OpenVPN it owns the member's routes, forwarding and
  masquerading (as root) and applies the network's DNS: --dns auto (systemd-resolved, resolvconf, else the
  resolv.conf file), file, resolvconf, resolvectl or none; --resolv-conf names the file (default /etc/resolv.conf).
  Dynamic routing runs FRRouting's daemons from /usr/lib/frr (HUBLINK_FRR_DIR elsewhere, e.g. /usr/libexec/frr).`;

export const SIMULATE_USAGE = `usage: hublink simulate --url ws://HOST[:PORT] (--file members.json | --routers PREFIX:COUNT [--apps USER@SIGN:COUNT]) [--secret S]
  members.json: [{"kind":"router","router_name":"r1","secret":"…"} | {"kind":"app","login":"u@sign","secret":"…"}]
  --routers shop:100 runs shop1…shop100; --apps u@acme:20 runs u1@acme…u20@acme; all with --secret (or HUBLINK_SECRET).`;

class UsageError extends Error {}

/** `hublink agent …`: one device until the server refuses it for good (exit 1) or SIGINT/SIGTERM (exit 0). */
export async function runAgentCommand(argv: string[]): Promise<number> {
  const options = {
    url: 'string',
    router: 'string',
    login: 'string',
    secret: 'string',
    'state-dir': 'string',
    simulate: 'boolean',
    'auth-source': 'string',
    source: 'string',
    api: 'string',
    dns: 'string',
    'resolv-conf': 'string',
  } as const;
  const { values } = parse(argv, options, AGENT_USAGE);
  if (!values) return 2;
  const url = values.url as string | undefined;
  const secret = (values.secret as string | undefined) ?? process.env.HUBLINK_SECRET;
  const router = values.router as string | undefined;
  const idCode = values['auth-source'] as string | undefined;
  let login = values.login as string | undefined;
  const dns = (values.dns as string | undefined) ?? 'auto';
  if (!url || (idCode ? router || login : !secret || (router ? login : !login)) || !isDnsMethod(dns)) {
    console.error(AGENT_USAGE);
    return 2;
  }
  let credential: string | undefined;
  if (idCode) {
    try {
      ({ login, credential } = await signInWithSource({ api: (values.api as string | undefined) ?? apiOf(url), code: idCode, source: values.source as string | undefined }));
    } catch (e) {
      console.error(`sign-in through the source failed: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
    console.log(`[${login}] signed in through the sign-in source`);
  }
  const identity: Identity = router ? { kind: 'router', router_name: router } : { kind: 'app', login: login! };
  const name = router ?? login!;
  const state = new StateDir((values['state-dir'] as string | undefined) ?? defaultStateDir(name));
  if (credential) state.saveCredential(credential);
  const openvpn = values.simulate ? null : findOpenvpn();
  let device: Device;
  if (openvpn) {
    device = new OpenvpnDevice({
      kind: identity.kind,
      name,
      binary: openvpn,
      stateDir: state.path,
      host: localHost(),
      dns: { method: dns, resolvConf: values['resolv-conf'] as string | undefined },
      controlHosts: [new URL(deviceUrl(url)).hostname],
      frrDir: process.env.HUBLINK_FRR_DIR || undefined,
    });
    console.log(`[${name}] OpenVPN mode: ${openvpn}, files under ${state.path}, DNS ${dns}`);
  } else {
    device = new SimulatedDevice({ kind: identity.kind, name });
    console.log(`[${name}] SIMULATED mode (${values.simulate ? '--simulate given' : 'no openvpn binary on PATH'}): links, traffic, sessions and flows are synthetic`);
  }
  const client = new DeviceClient({ url, identity, secret: idCode ? undefined : secret, credential: state.readCredential(), deviceId: state.deviceId(), device, saveCredential: (c) => state.saveCredential(c) });
  return new Promise<number>((resolve) => {
    const finish = (code: number) => {
      clearInterval(watch);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      void client.stop().then(() => resolve(code));
    };
    const onSignal = () => finish(0);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    const watch = setInterval(() => {
      if (client.state === 'failed') {
        console.error(`[${name}] the server refused this device: ${client.failure?.reason ?? ''}${idCode ? ' (sign in again with --auth-source)' : ''}`);
        finish(1);
      }
    }, 500);
    client.start();
  });
}

export const RELAY_USAGE = `usage: hublink relay --server http(s)://HOST[:PORT] --token TOKEN [--bind ADDRESS]
  A POP relay: forwards points' tunnels (UDP) to their centers on the ports the server gives it, and reports its
  load every few seconds. The token comes from \`hublink ops pops relay-add AREA\` (or HUBLINK_RELAY_TOKEN).`;

/** `hublink relay …`: a POP relay until SIGINT/SIGTERM (exit 0) or the server refuses its token (exit 1). */
export async function runRelayCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { server: 'string', token: 'string', bind: 'string' }, RELAY_USAGE);
  if (!values) return 2;
  const server = values.server as string | undefined;
  const token = (values.token as string | undefined) ?? process.env.HUBLINK_RELAY_TOKEN;
  if (!server || !token || !/^https?:\/\//.test(server)) {
    console.error(RELAY_USAGE);
    return 2;
  }
  const relay = new Relay({ server: new URL(server).origin, token, bindHost: values.bind as string | undefined });
  const onSignal = () => void relay.stop(0);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  relay.start();
  const code = await relay.done;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}

const DNS_METHODS: readonly string[] = ['auto', 'file', 'resolvconf', 'resolvectl', 'none'];
const isDnsMethod = (v: string): v is DnsMethod => DNS_METHODS.includes(v);

/** The server's HTTP origin from the gateway URL given (ws → http, wss → https). */
export const apiOf = (url: string) => new URL(url.replace(/^ws/, 'http')).origin;

/** `hublink simulate …`: many simulated agents in this process, a summary line every 10 s. */
export async function runSimulateCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { url: 'string', file: 'string', routers: 'string', apps: 'string', secret: 'string' }, SIMULATE_USAGE);
  if (!values) return 2;
  let members: SimulatedMember[];
  try {
    members = simulatedMembers(values as Record<string, string | undefined>);
  } catch (e) {
    console.error(e instanceof UsageError ? `${e.message}\n${SIMULATE_USAGE}` : e);
    return 2;
  }
  const url = values.url as string | undefined;
  if (!url || members.length === 0) {
    console.error(SIMULATE_USAGE);
    return 2;
  }
  console.log(`simulating ${members.length} agents against ${url} (SIMULATED mode: synthetic links, traffic, sessions and flows)`);
  const run = simulate({ url, members });
  return new Promise<number>((resolve) => {
    const summary = setInterval(() => console.log(`${new Date().toISOString()} ${run.summary()}`), 10_000);
    const onSignal = () => {
      clearInterval(summary);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      console.log(run.summary());
      void run.stop().then(() => resolve(0));
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

export function simulatedMembers(values: Record<string, string | undefined>): SimulatedMember[] {
  if (values.file) return readMembersFile(values.file);
  const secret = values.secret ?? process.env.HUBLINK_SECRET;
  if (!values.routers && !values.apps) throw new UsageError('give --file, or --routers and/or --apps');
  if (!secret) throw new UsageError('--routers and --apps need --secret (or HUBLINK_SECRET)');
  const members: SimulatedMember[] = [];
  if (values.routers) {
    const [prefix, count] = split(values.routers, '--routers');
    for (let i = 1; i <= count; i++) members.push({ kind: 'router', router_name: `${prefix}${i}`, secret });
  }
  if (values.apps) {
    const [login, count] = split(values.apps, '--apps');
    const at = login.lastIndexOf('@');
    if (at < 1) throw new UsageError('--apps wants USER@SIGN:COUNT');
    for (let i = 1; i <= count; i++) members.push({ kind: 'app', login: `${login.slice(0, at)}${i}${login.slice(at)}`, secret });
  }
  return members;
}

function split(value: string, flag: string): [string, number] {
  const colon = value.lastIndexOf(':');
  const count = Number(value.slice(colon + 1));
  if (colon < 1 || !Number.isInteger(count) || count < 1) throw new UsageError(`${flag} wants NAME:COUNT, got ${value}`);
  return [value.slice(0, colon), count];
}

function readMembersFile(file: string): SimulatedMember[] {
  const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(data)) throw new UsageError(`${file}: expected a JSON array of members`);
  return data.map((m: unknown, i): SimulatedMember => {
    const o = (m ?? {}) as Record<string, unknown>;
    if (typeof o.secret !== 'string') throw new UsageError(`${file}[${i}]: secret missing`);
    if (o.kind === 'router' && typeof o.router_name === 'string') return { kind: 'router', router_name: o.router_name, secret: o.secret };
    if (o.kind === 'app' && typeof o.login === 'string') return { kind: 'app', login: o.login, secret: o.secret };
    throw new UsageError(`${file}[${i}]: want {kind:"router",router_name} or {kind:"app",login}`);
  });
}

function parse(argv: string[], spec: Record<string, 'string' | 'boolean'>, usage: string) {
  try {
    const options = Object.fromEntries(Object.entries(spec).map(([k, type]) => [k, { type }]));
    return parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  } catch (e) {
    console.error(`${e instanceof Error ? e.message : String(e)}\n${usage}`);
    return { values: null };
  }
}
