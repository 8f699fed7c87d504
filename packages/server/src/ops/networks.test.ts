import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE, editPrefix, exportNetwork, fmt, M, setDns, type PlanAnswer } from '@hublink/contract';
import { parse, stringify } from 'yaml';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { networkTables, seedFreshMembers, seedNetwork } from '../../test/networks';
import { ops } from '../../test/ops';
import { OPS_COMMANDS } from './commands';
import { runOps } from './run';

/** A tenant with a network of two centers and two points, each with a LAN prefix. */
async function tenantWithNetwork(t: TestApp) {
  const main = await newAccount(t);
  const allowed = await ops(t, ['tenants', 'auth', main.username, '--quagga', '1', '--quagga-advanced', '1', '--default-route', '1']);
  expect(allowed.code, allowed.err).toBe(0);
  const centers = await seedFreshMembers(t, main.account.id, 2);
  const points = await seedFreshMembers(t, main.account.id, 2);
  const net = await seedNetwork(t, main.account.id, { center: centers, point: points });
  const prefix = [...centers, ...points].map((name, i) => ({ ip: `10.${i + 1}.0.0`, mask: 24, name, permission: 'permit' }));
  const res = await t.call(editPrefix, { token: main.token, body: { network_number: net.network_number, prefix } });
  expect(res.code, res.msg).toBe(CODE.ok);
  return { main, centers, points, net };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-ops-network-'));
let files = 0;
/** The document written to a new file; its path. */
function fileWith(text: string): string {
  const file = path.join(dir, `network-${++files}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

/** What an apply or a plan could write. */
async function written(t: TestApp) {
  return {
    ...(await networkTables(t)),
    prefixes: await t.db.selectFrom('network_prefix').selectAll().orderBy('id').execute(),
    versions: await t.db.selectFrom('network_version').select(['id', 'applied']).orderBy('id').execute(),
  };
}

describeEachDatabase('hublink ops network export|plan|apply (issue 36)', (getApp) => {
  let t: TestApp;
  let s: Awaited<ReturnType<typeof tenantWithNetwork>>;
  const tenant = () => ['--tenant', s.main.username];
  const network = () => ['--network', s.net.network_number];
  beforeAll(async () => {
    t = getApp();
    s = await tenantWithNetwork(t);
  });

  const exported = async () => {
    const run = await ops(t, ['network', 'export', ...tenant(), ...network()]);
    expect(run.code, run.err).toBe(0);
    return run.out;
  };
  const edited = async (change: (doc: Record<string, unknown>) => void) => {
    const doc = parse(await exported()) as Record<string, unknown>;
    change(doc);
    return stringify(doc);
  };

  it("export prints the document the API exports, YAML or JSON; --json gives the API's data", async () => {
    const api = await t.call(exportNetwork, { token: s.main.token, query: { network_number: s.net.network_number, format: 'yaml' } });
    expect(await exported()).toBe(api.data!.document);
    const json = await ops(t, ['network', 'export', ...tenant(), ...network(), '--format', 'json']);
    expect(JSON.parse(json.out)).toEqual(parse(api.data!.document));
    const data = await ops(t, ['network', 'export', '--tenant', String(s.main.account.id), ...network(), '--json']);
    expect(data.json()).toMatchObject({ ok: true, format: 'yaml', file_name: `network-${s.net.network_number}.yaml`, document: api.data!.document });
  });

  it('plan prints the changed fields, the members, the reachability effect and the drift, and changes nothing', async () => {
    const doc = await edited((d) => {
      d.dns = ['192.0.2.53'];
      d.prefixes = (d.prefixes as { name: string }[]).filter((p) => p.name !== s.points[1]);
    });
    const before = await written(t);
    const run = await ops(t, ['network', 'plan', fileWith(doc), ...tenant(), ...network()]);
    expect(run.code, run.err).toBe(0);
    const lines = run.out.trimEnd().split('\n');
    expect(lines[0]).toBe(`network ${s.net.network_number} 测试网络`);
    expect(lines[1]).toBe('changes (2):');
    expect(lines).toContain(`  ${M.histFieldDns}: (none) → 192.0.2.53`);
    expect(lines).toContain('members: none added, removed or changed');
    // Taking a point's LAN off the list loses the pairs that reached it.
    expect(run.out).toMatch(/^reachability: [1-9]\d* lost, 0 gained .*; 4 member configuration\(s\) change$/m);
    expect(lines.at(-1)).toBe('drift: no document applied to this network yet');
    expect(await written(t)).toEqual(before);

    const json = await ops(t, ['network', 'plan', fileWith(doc), ...tenant(), ...network(), '--json']);
    const answer = json.json<PlanAnswer & { ok: boolean }>();
    expect(answer.changes.map((r) => r.key).sort()).toEqual(['network.dns', 'network.prefixes']);
    expect(answer.effect?.member_count).toBe(4);
  });

  it('apply writes one version as the main account, audited as the operator; applying it again changes nothing', async () => {
    const doc = fileWith(
      await edited((d) => {
        d.dns = ['192.0.2.53'];
      }),
    );
    const run = await ops(t, ['network', 'apply', doc, ...tenant(), ...network()]);
    expect(run.code, run.err).toBe(0);
    const version = Number(/^network \S+: applied as version (\d+)$/.exec(run.out.trim())?.[1]);
    const row = await t.db.selectFrom('network_version').select(['summary', 'applied', 'who_kind', 'who_name', 'effect']).where('network_id', '=', s.net.id).where('version', '=', version).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ summary: M.codeAppliedSummary, applied: 1, who_kind: 'main', who_name: s.main.username });
    // The effect is kept with the version, as the API's apply keeps it.
    expect(JSON.parse(row.effect!)).toMatchObject({ member_count: 4 });
    const audit = await t.db.selectFrom('audit_entry').select(['who', 'path']).where('tenant_id', '=', s.main.account.id).where('path', '=', '/ops/network/apply').execute();
    expect(audit).toEqual([{ who: 'operator', path: '/ops/network/apply' }]);

    const before = await written(t);
    const again = await ops(t, ['network', 'apply', doc, ...tenant(), ...network(), '--json']);
    expect(again.json()).toEqual({ ok: true, message: `network ${s.net.network_number}: no change`, network_number: s.net.network_number, version: null, changed: false });
    expect(await written(t)).toEqual(before);
  });

  it('plan names a change made outside the applied document, with who made it', async () => {
    const res = await t.call(setDns, { token: s.main.token, body: { network_number: s.net.network_number, dns: ['198.51.100.53'] } });
    expect(res.code, res.msg).toBe(CODE.ok);
    const doc = await edited((d) => {
      d.dns = ['192.0.2.53'];
    });
    const run = await ops(t, ['network', 'plan', fileWith(doc), ...tenant(), ...network()]);
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^drift since version \d+ \(applied .+ by .+\): 1 field\(s\) changed outside the document$/m);
    expect(run.out).toContain(`  ${M.histFieldDns}: 192.0.2.53 → 198.51.100.53`);
    expect(run.out).toMatch(new RegExp(`^  version \\d+, .+, .*${s.main.username}.*: `, 'm'));
    expect((await ops(t, ['network', 'apply', fileWith(doc), ...tenant(), ...network()])).code).toBe(0);
  });

  it('apply without --network builds a new network from the document', async () => {
    const doc = await edited((d) => {
      d.name = '从文档建的网';
      d.prefixes = [];
    });
    const run = await ops(t, ['network', 'apply', fileWith(doc), ...tenant(), '--json']);
    expect(run.code, run.err).toBe(0);
    const made = run.json<{ network_number: string; changed: boolean }>();
    expect(made.network_number).not.toBe(s.net.network_number);
    const copy = await ops(t, ['network', 'export', ...tenant(), '--network', made.network_number]);
    expect(parse(copy.out)).toMatchObject({ name: '从文档建的网', centers: s.centers.map((name) => ({ name })) });
  });

  it("refuses what the service refuses (exit 1, the service's message) and bad input (exit 2), changing nothing", async () => {
    const before = await written(t);
    const unknown = await edited((d) => {
      (d.points as { name: string }[])[1]!.name = 'no-such-member';
    });
    const refused = await ops(t, ['network', 'apply', fileWith(unknown), ...tenant(), ...network()]);
    expect([refused.code, refused.err.trim()]).toEqual([1, fmt(M.codeDocumentInvalid, { path: 'points[1].name', reason: fmt(M.codeMemberUnknown, { name: 'no-such-member' }) })]);
    const other = await newAccount(t);
    const elsewhere = await ops(t, ['network', 'plan', fileWith(await exported()), '--tenant', other.username, ...network()]);
    expect(elsewhere.code).toBe(1);
    expect((await ops(t, ['network', 'export', '--tenant', 'nobody-here', ...network()])).err.trim()).toBe('no tenant nobody-here');

    const bad = [
      [['network', 'plan', ...tenant(), ...network()], '<file>: FILE needs a path'],
      [['network', 'plan', path.join(dir, 'missing.yaml'), ...tenant()], '<file>: cannot read'],
      [['network', 'apply', fileWith(''), ...tenant()], `<file>: ${M.codeDocumentRequired}`],
      [['network', 'apply', fileWith(await exported()), ...network()], '--tenant: a tenant (id or username) is required'],
      [['network', 'export', ...tenant()], '--network: a network number is required'],
      [['network', 'export', ...tenant(), ...network(), '--format', 'toml'], '--format: the format is yaml or json'],
    ] as const;
    for (const [argv, message] of bad) {
      const run = await ops(t, [...argv]);
      expect([run.code, run.err.split('\n')[0]], argv.join(' ')).toEqual([2, expect.stringContaining(message)]);
    }
    expect(await written(t)).toEqual(before);
  });

  it('plans and applies in a session of its own, as `hublink ops` runs it (no routes mounted)', async () => {
    const doc = fileWith(
      await edited((d) => {
        d.dns = ['203.0.113.53'];
      }),
    );
    // A context the server's routes never saw, like the one openOpsSession makes.
    const session = { ...t.app.ctx };
    let out = '';
    const io = { open: async () => ({ ctx: session, close: () => session.events.settle() }), out: (text: string) => (out += text), err: (text: string) => (out += text) };
    expect(await runOps(['network', 'plan', doc, ...tenant(), ...network(), '--json'], OPS_COMMANDS, io), out).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ effect: { member_count: 4 } });
    out = '';
    expect(await runOps(['network', 'apply', doc, ...tenant(), ...network()], OPS_COMMANDS, io), out).toBe(0);
    expect(out).toMatch(/applied as version/);
  });
});
