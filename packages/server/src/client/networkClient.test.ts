import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { CODE, createApiToken, createRole, exportNetwork, fmt, M } from '@hublink/contract';
import { parse, stringify } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, type TestApp } from '../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../test/networks';
import { NETWORK_CLIENT_USAGE, runNetworkClient } from './networkClient';

const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const TOKEN_NAME = 'pipeline';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-network-client-'));
let files = 0;
function fileWith(text: string): string {
  const file = path.join(dir, `network-${++files}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

/** `hublink network …` in this process with this environment: its exit code and what it printed. */
async function client(argv: string[], env: Record<string, string | undefined>) {
  let out = '';
  let err = '';
  const code = await runNetworkClient(argv, { env, out: (text) => (out += `${text}\n`), err: (text) => (err += `${text}\n`) });
  return { code, out, err };
}

/** A loopback address where nothing listens: a port the system handed out, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describeEachDatabase('hublink network: the tenant client over HTTP with an API token (issue 36)', (getApp) => {
  let t: TestApp;
  let env: Record<string, string>;
  let network: string;
  let networkId: number;
  let points: string[];
  const run = (argv: string[], over: Record<string, string | undefined> = {}) => client(argv, { ...env, ...over });
  const versions = () => t.db.selectFrom('network_version').select(['version', 'applied']).where('network_id', '=', networkId).orderBy('version').execute();

  beforeAll(async () => {
    t = getApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const main = await newAccount(t);
    const centers = await seedFreshMembers(t, main.account.id, 2);
    points = await seedFreshMembers(t, main.account.id, 2);
    ({ network_number: network, id: networkId } = await seedNetwork(t, main.account.id, { center: centers, point: points }));
    // A token of a role that may edit networks, made as the console makes one.
    const role = await t.call(createRole, { token: main.token, body: { name: '流水线', note: '', auth: FULL_ROLE } });
    expect(role.code, role.msg).toBe(CODE.ok);
    const made = await t.call(createApiToken, { token: main.token, body: { name: TOKEN_NAME, scope: 'role', role_id: role.data!.id, expires_days: 30 } });
    expect(made.code, made.msg).toBe(CODE.ok);
    env = { HUBLINK_SERVER: `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`, HUBLINK_TOKEN: made.data!.token };
  });

  it('exports, plans, applies, and applies again without a change', async () => {
    const exported = await run(['export', '--network', network]);
    expect(exported.code, exported.err).toBe(0);
    const api = await t.call(exportNetwork, { token: env.HUBLINK_TOKEN, query: { network_number: network } });
    expect(exported.out).toBe(api.data!.document);

    const doc = parse(exported.out) as Record<string, unknown>;
    doc.dns = ['192.0.2.53'];
    const file = fileWith(stringify(doc));
    const before = await versions();
    const plan = await run(['plan', file, '--network', network]);
    expect(plan.code, plan.err).toBe(0);
    expect(plan.out.split('\n').slice(0, 3)).toEqual([`network ${network} 测试网络`, 'changes (1):', `  ${M.histFieldDns}: (none) → 192.0.2.53`]);
    expect(plan.out).toMatch(/^reachability: 0 lost, 0 gained /m);
    expect(await versions()).toEqual(before);

    const applied = await run(['apply', file, '--network', network]);
    expect(applied.code, applied.err).toBe(0);
    const version = Number(/^network \S+: applied as version (\d+)\n$/.exec(applied.out)?.[1]);
    const row = await t.db.selectFrom('network_version').select(['who_kind', 'who_name', 'applied']).where('network_id', '=', networkId).where('version', '=', version).executeTakeFirstOrThrow();
    expect(row).toEqual({ who_kind: 'token', who_name: TOKEN_NAME, applied: 1 });

    const after = await versions();
    const again = await run(['apply', file, '--network', network, '--json']);
    expect(again.code, again.err).toBe(0);
    expect(JSON.parse(again.out)).toEqual({ network_number: network, version: null, changed: false });
    expect((await run(['apply', file, '--network', network])).out).toBe(`network ${network}: no change\n`);
    expect(await versions()).toEqual(after);
    expect(JSON.parse((await run(['export', '--network', network, '--format', 'json', '--json'])).out)).toMatchObject({ format: 'json', document: expect.stringContaining('"192.0.2.53"') });
  });

  it("prints the server's refusal and exits 1, for a document it refuses and for a token it does not know", async () => {
    const doc = parse((await run(['export', '--network', network])).out) as { points: { name: string }[] };
    doc.points[1]!.name = 'no-such-member';
    const before = await versions();
    const refused = await run(['apply', fileWith(stringify(doc)), '--network', network]);
    expect([refused.code, refused.out, refused.err]).toEqual([1, '', `${fmt(M.codeDocumentInvalid, { path: 'points[1].name', reason: fmt(M.codeMemberUnknown, { name: 'no-such-member' }) })}\n`]);
    expect(await versions()).toEqual(before);

    const wrong = `hlk_${'A'.repeat(43)}`;
    const answer = await t.call(exportNetwork, { token: wrong, query: { network_number: network } });
    expect(answer.code).toBe(CODE.tokenInvalid);
    const denied = await run(['export', '--network', network], { HUBLINK_TOKEN: wrong });
    expect([denied.code, denied.err]).toEqual([1, `${answer.msg}\n`]);
  });

  it('says in one line that the server cannot be reached, and exits 1', async () => {
    const server = `http://127.0.0.1:${await closedPort()}`;
    const res = await run(['export', '--network', network, '--server', server]);
    expect([res.code, res.out, res.err]).toEqual([1, '', `hublink: cannot reach ${server}: connection refused\n`]);
    const plan = await run(['plan', fileWith('kind: hublink/network/v1\n')], { HUBLINK_SERVER: server });
    expect([plan.code, plan.err]).toEqual([1, `hublink: cannot reach ${server}: connection refused\n`]);
  });

  it("names a redirect instead of following it, and an answer that is not HubLink's", async () => {
    const other = http.createServer((req, res) => {
      if (req.url!.startsWith('/moved/')) res.writeHead(301, { location: 'https://hublink.example.com/' }).end();
      else res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad Gateway</h1>');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const origin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const moved = await run(['export', '--network', network, '--server', `${origin}/moved/`]);
      expect([moved.code, moved.err]).toEqual([1, `hublink: ${origin} redirects to https://hublink.example.com/: give that address with --server\n`]);
      const proxy = await run(['export', '--network', network, '--server', origin]);
      expect([proxy.code, proxy.err]).toEqual([1, `hublink: ${origin} answered HTTP 502, not as a HubLink server does\n`]);
    } finally {
      await new Promise<void>((resolve) => other.close(() => resolve()));
    }
  });

  it('answers bad usage with the usage and exit 2, asking nothing of the server', async () => {
    const bad: [string[], Record<string, string | undefined>, string][] = [
      [['import'], {}, "unknown command 'import'"],
      [['export'], {}, 'export needs --network NUMBER'],
      [['export', '--network', network, '--format', 'toml'], {}, '--format: yaml or json'],
      [['plan'], {}, 'plan needs a FILE'],
      [['apply', 'a.yaml', 'b.yaml'], {}, "unexpected argument 'b.yaml'"],
      [['plan', 'a.yaml', '--format', 'json'], {}, '--format is for export'],
      [['export', '--network', network, '--token', env.HUBLINK_TOKEN!], {}, 'the API token is read from $HUBLINK_TOKEN, never from the command line'],
      [['export', '--network', network], { HUBLINK_TOKEN: undefined }, 'set $HUBLINK_TOKEN to a personal API token'],
      [['export', '--network', network], { HUBLINK_SERVER: undefined }, 'give the server with --server URL or $HUBLINK_SERVER'],
      [['export', '--network', network, '--server', 'ftp://example.com'], {}, '--server: ftp://example.com is not an http(s) URL'],
      [['export', '--network', network, '--verbose'], {}, "Unknown option '--verbose'"],
    ];
    for (const [argv, over, message] of bad) {
      const res = await run(argv, over);
      expect([res.code, res.out, res.err.split('\n')[0]], argv.join(' ')).toEqual([2, '', expect.stringContaining(message)]);
      expect(res.err).toContain(`\n${NETWORK_CLIENT_USAGE}\n`);
    }
    expect(await run([])).toEqual({ code: 2, out: '', err: `${NETWORK_CLIENT_USAGE}\n` });
    expect(await run(['plan', '--help'])).toEqual({ code: 0, out: `${NETWORK_CLIENT_USAGE}\n`, err: '' });

    const missing = path.join(dir, 'missing.yaml');
    expect(await run(['plan', missing])).toEqual({ code: 2, out: '', err: `cannot read ${missing}: no such file\n` });
    const huge = fileWith('#'.repeat(1_000_001));
    expect(await run(['apply', huge, '--network', network])).toEqual({ code: 2, out: '', err: `${fmt(M.codeDocumentTooLarge, { n: 1_000_000 })}\n` });
  });

  it('runs as `hublink network` in a process of its own', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/main.ts', 'network', 'export', '--network', network, '--server', env.HUBLINK_SERVER!], {
      cwd: SERVER_ROOT,
      env: { ...process.env, HUBLINK_SERVER: '', HUBLINK_TOKEN: env.HUBLINK_TOKEN },
    });
    expect(stdout).toBe((await run(['export', '--network', network])).out);
  }, 60_000);
});

describe('hublink network loads no server', () => {
  /** The files and packages a source file imports, and theirs, within packages/server/src. */
  function importsOf(file: string, seen = { files: new Set<string>(), packages: new Set<string>() }) {
    if (seen.files.has(file)) return seen;
    seen.files.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(/\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)|^import\s+'([^']+)'/gm)) {
      const spec = (m[1] ?? m[2] ?? m[3])!;
      if (!spec.startsWith('.')) {
        seen.packages.add(spec);
        continue;
      }
      const target = path.resolve(path.dirname(file), spec);
      const found = [`${target}.ts`, path.join(target, 'index.ts')].find((f) => fs.existsSync(f));
      if (!found) throw new Error(`${file}: cannot resolve ${spec}`);
      importsOf(found, seen);
    }
    return seen;
  }

  it('imports only the contract, its own files and what it shares with the operator command', () => {
    const src = path.join(SERVER_ROOT, 'src');
    const seen = importsOf(path.join(src, 'client/networkClient.ts'));
    expect([...seen.files].map((f) => path.relative(src, f)).sort()).toEqual(['client/networkClient.ts', 'ops/files.ts', 'ops/networkPlanText.ts']);
    expect([...seen.packages].filter((p) => !p.startsWith('node:')).sort()).toEqual(['@hublink/contract', 'zod']);
  });
});
