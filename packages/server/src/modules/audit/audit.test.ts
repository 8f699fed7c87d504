import ExcelJS from 'exceljs';
import {
  AUDIT_EXPORT_COLUMNS,
  auditActionKnown,
  auditExport,
  auditList,
  auditSettingGet,
  auditSettingSave,
  changeRamPassword,
  CODE,
  deleteNetwork,
  LIMITS,
  M,
  ramLog,
  renameNetwork,
  auditWhoText,
  type AuditEntry,
  type Endpoint,
} from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../../test/networks';
import { ops } from '../../../test/ops';
import { applyRetention } from './service';

type Main = Awaited<ReturnType<typeof newAccount>>;

const DAY_MS = 86_400_000;

/** The tenant's entries (newest first) once every event so far is delivered. */
async function entries(t: TestApp, token: string, query: Record<string, unknown> = {}) {
  await t.ctx.events.settle();
  const res = await t.call(auditList, { token, query: { limit: LIMITS.maxPageLimit, ...query } });
  expect(res.code).toBe(CODE.ok);
  return { rows: res.data!, count: res.count! };
}

/** An entry written straight into the table (for times the calls cannot make: old entries). */
async function oldEntry(t: TestApp, tenantId: number, daysAgo: number, eventId: number) {
  await t.db
    .insertInto('audit_entry')
    .values({
      tenant_id: tenantId,
      event_id: eventId,
      create_time: Date.now() - daysAgo * DAY_MS,
      who: 'main',
      ram_id: null,
      token_id: null,
      source: 'console',
      method: 'POST',
      path: '/network/name',
      msg: '旧',
      area: 'network',
      kind: 'update',
      object_type: 'network',
      object_id: '1',
      object_name: `old${daysAgo}`,
      changes: '[]',
    })
    .execute();
}

describeEachDatabase('audit trail: entries of every call kind, list, filters, export, retention', (t) => {
  let a: Main;
  let b: Main;
  let network: { id: number; network_number: string };
  let ram: Awaited<ReturnType<typeof newRamAccount>>;
  let ramToken: string;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
    const members = await seedFreshMembers(t(), a.account.id, 2);
    network = await seedNetwork(t(), a.account.id, { center: [members[0]!], point: [members[1]!], name: '审计网络' });
    ram = await newRamAccount(t(), a.account.id);
    ramToken = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
  });

  it("writes a main account's call with who, where from, the call, the object and the changed field", async () => {
    const res = await t().call(renameNetwork, {
      token: a.token,
      body: { network_number: network.network_number, network_name: '改名网络' },
      ip: '10.9.8.7',
      headers: { 'user-agent': 'audit-test/1.0' },
    });
    expect(res.code).toBe(CODE.ok);
    const { rows } = await entries(t(), a.token, { area: 'network' });
    const e = rows.find((r) => r.path === '/network/name')!;
    expect(e).toMatchObject({
      who: 'main',
      actor_name: '',
      ip: '10.9.8.7',
      user_agent: 'audit-test/1.0',
      source: 'console',
      method: 'POST',
      msg: res.msg,
      action: '修改网络名称',
      area: 'network',
      kind: 'update',
      object_type: 'network',
      object_id: String(network.id),
      object_name: '改名网络',
      more: 0,
    });
    const change = e.changes.find((c) => c.table === 'network')!;
    expect(change).toMatchObject({ id: network.id, name: '改名网络', op: 'update' });
    expect(change.fields).toContainEqual({ field: 'network_name', before: '审计网络', after: '改名网络' });
  });

  it("writes a sub-account's call with its name, and its operation log from the same event; a password only as changed", async () => {
    const res = await t().call(changeRamPassword, { token: ramToken, body: { old_password: ram.password, password: 'newpass123', reset_password: 'newpass123' } });
    expect(res.code).toBe(CODE.ok);
    const { rows } = await entries(t(), a.token, { who: 'ram' });
    const e = rows.find((r) => r.path === '/ram/password')!;
    expect(e).toMatchObject({ who: 'ram', actor_name: ram.username, kind: 'update', object_type: 'ram_account', object_id: String(ram.id) });
    expect(e.changes[0]!.fields).toContainEqual({ field: 'password_hash', before: null, after: null, secret: true });
    // The row is named though its name did not change (the drawer's title of the change).
    expect(e.changes[0]).toMatchObject({ table: 'ram_account', name: ram.username });
    expect(JSON.stringify(e)).not.toMatch(/scrypt|newpass123/);
    const log = await t().call(ramLog, { token: a.token, query: { ram_id: ram.id } });
    expect(log.data!.some((l) => l.message === res.msg)).toBe(true);
    // The main account's calls are in no operation log.
    const rows2 = await t().db.selectFrom('ram_log').select('ram_id').where('tenant_id', '=', a.account.id).execute();
    expect(rows2.every((r) => r.ram_id === ram.id)).toBe(true);
  });

  it('records a delete with the old values, and the retention setting as a change of its own', async () => {
    expect((await t().call(auditSettingGet, { token: a.token })).data).toEqual({ retention_days: LIMITS.auditRetentionDays });
    expect(await t().call(auditSettingSave, { token: a.token, body: { retention_days: 30 } })).toMatchObject({ code: CODE.ok, msg: M.saved });
    expect((await t().call(auditSettingGet, { token: a.token })).data).toEqual({ retention_days: 30 });
    const del = await t().call(deleteNetwork, { token: a.token, body: { network_number: network.network_number } });
    expect(del.code).toBe(CODE.ok);
    const { rows } = await entries(t(), a.token);
    const setting = rows.find((r) => r.path === '/audit/setting')!;
    expect(setting).toMatchObject({ kind: 'create', object_type: 'audit_setting' });
    expect(setting.changes[0]!.fields).toContainEqual({ field: 'retention_days', before: null, after: 30 });
    const gone = rows.find((r) => r.path === '/network/delete')!;
    expect(gone.kind).toBe('delete');
    const net = gone.changes.find((c) => c.table === 'network')!;
    expect(net).toMatchObject({ op: 'delete', id: network.id });
    expect(net.fields).toContainEqual({ field: 'network_name', before: '改名网络', after: null });
  });

  it('refuses a bad retention with its message and changes nothing', async () => {
    for (const retention_days of [0, LIMITS.auditRetentionDaysMin - 1, LIMITS.auditRetentionDaysMax + 1, 'x', 1.5]) {
      expect(await t().call(auditSettingSave, { token: a.token, body: { retention_days } })).toMatchObject({ code: CODE.invalid, msg: M.auditRetentionInvalid });
    }
    expect((await t().call(auditSettingGet, { token: a.token })).data).toEqual({ retention_days: 30 });
  });

  it('filters by who, object, kind, area and days, and pages with a total', async () => {
    const all = await entries(t(), a.token);
    expect(all.count).toBe(all.rows.length);
    expect(all.count).toBeGreaterThanOrEqual(4);
    expect((await entries(t(), a.token, { who: ram.username })).rows.map((r) => r.path)).toEqual(['/ram/password']);
    expect((await entries(t(), a.token, { who: 'main' })).rows.every((r) => r.who === 'main')).toBe(true);
    expect((await entries(t(), a.token, { object: '改名' })).rows.map((r) => r.path).sort()).toEqual(['/network/delete', '/network/name']);
    expect((await entries(t(), a.token, { kind: 'delete' })).rows.map((r) => r.path)).toEqual(['/network/delete']);
    expect((await entries(t(), a.token, { area: 'audit' })).rows.map((r) => r.path)).toEqual(['/audit/setting']);
    // The search finds an entry by what it did, as the 操作 column names it.
    expect((await entries(t(), a.token, { search: '修改网络名称' })).rows.map((r) => r.path)).toEqual(['/network/name']);
    expect((await entries(t(), a.token, { start_time: '2001-01-01', end_time: '2001-01-02' })).count).toBe(0);
    const today = (await entries(t(), a.token)).rows[0]!.create_time.slice(0, 10);
    expect((await entries(t(), a.token, { start_time: today, end_time: today })).count).toBe(all.count);
    const page1 = await t().call(auditList, { token: a.token, query: { page: 1, limit: 1 } });
    const page2 = await t().call(auditList, { token: a.token, query: { page: 2, limit: 1 } });
    expect(page1.count).toBe(all.count);
    expect(page1.data!.map((r) => r.id)).toEqual([all.rows[0]!.id]);
    expect(page2.data!.map((r) => r.id)).toEqual([all.rows[1]!.id]);
    expect(await t().call(auditList, { token: a.token, query: { start_time: '2025-02-30' } })).toMatchObject({ code: CODE.invalid, msg: M.logDateInvalid });
    expect(await t().call(auditList, { token: a.token, query: { kind: 'nope' } })).toMatchObject({ code: CODE.invalid });
  });

  it('exports the matching entries as a workbook with the changes readable, and 422 when none match', async () => {
    const res = await t().call(auditExport, { token: a.token, query: { area: 'network' } });
    expect(res.code).toBe(CODE.ok);
    expect(res.data!.file_name).toMatch(/^审计日志-\d{8}\.xlsx$/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(res.data!.data, 'base64') as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect((ws.getRow(1).values as unknown[]).slice(1)).toEqual([...AUDIT_EXPORT_COLUMNS]);
    expect(ws.rowCount).toBe(3);
    const cells = [2, 3].map((i) => String(ws.getRow(i).getCell(AUDIT_EXPORT_COLUMNS.length).value));
    expect(cells.join('\n')).toContain('网络名称: 审计网络 → 改名网络');
    // Each changed row by its name, as the page's drawer names it.
    expect(cells.join('\n')).toMatch(/^网络 改名网络$/m);
    const actions = [2, 3].map((i) => String(ws.getRow(i).getCell(AUDIT_EXPORT_COLUMNS.indexOf(M.auditCall) + 1).value));
    expect(actions.sort()).toEqual(['修改网络名称', '删除网络'].sort());
    expect(await t().call(auditExport, { token: a.token, query: { area: 'nothing' } })).toMatchObject({ code: CODE.invalid, msg: M.exportEmpty });
  });

  it("keeps tenants apart: B sees none of A's entries, and its own call only", async () => {
    expect((await entries(t(), b.token)).count).toBe(0);
    await t().call(auditSettingSave, { token: b.token, body: { retention_days: 90 } });
    const own = await entries(t(), b.token);
    expect(own.rows.map((r) => r.path)).toEqual(['/audit/setting']);
    expect(await t().call(auditExport, { token: b.token, query: { area: 'network' } })).toMatchObject({ code: CODE.invalid, msg: M.exportEmpty });
    expect((await t().call(auditSettingGet, { token: a.token })).data).toEqual({ retention_days: 30 });
  });

  it('refuses sub-accounts on every audit call', async () => {
    // The password change above ended the sub-account's sessions.
    const token = (await signIn(t(), ram.login, 'newpass123', { ram: true })).data!.access_token;
    for (const [endpoint, input] of [
      [auditList, {}],
      [auditExport, {}],
      [auditSettingGet, {}],
      [auditSettingSave, { body: { retention_days: 60 } }],
    ] as [Endpoint, object][]) {
      expect(await t().call(endpoint, { token, ...input })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    }
  });

  it('offers no call that changes or deletes an entry', () => {
    const routes = t().app.printRoutes({ commonPrefix: false });
    const auditPosts = [...routes.matchAll(/\/api\/v1\/audit\/\S+ \(([^)]*)\)/g)].filter((m) => m[1]!.includes('POST')).map((m) => m[0]);
    expect(auditPosts).toEqual([expect.stringContaining('/api/v1/audit/setting')]);
  });

  it("the daily job removes entries past each tenant's retention (the default for tenants without a setting)", async () => {
    const c = await newAccount(t());
    const base = 9_000_000 + Math.floor(Math.random() * 1_000_000);
    await oldEntry(t(), a.account.id, 31, base);
    await oldEntry(t(), a.account.id, 29, base + 1);
    await oldEntry(t(), c.account.id, LIMITS.auditRetentionDays + 1, base + 2);
    await oldEntry(t(), c.account.id, LIMITS.auditRetentionDays - 1, base + 3);
    await oldEntry(t(), b.account.id, 91, base + 4);
    expect(await applyRetention(t().ctx)).toBe(3);
    const left = await t().db.selectFrom('audit_entry').select('object_name').where('event_id', '>=', base).orderBy('event_id').execute();
    expect(left.map((r) => r.object_name)).toEqual(['old29', `old${LIMITS.auditRetentionDays - 1}`]);
  });

  it('writes one entry per event, however often it is delivered', async () => {
    const before = await t().db.selectFrom('audit_entry').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const ev = await t().db.selectFrom('event').select(['id', 'payload', 'create_time']).where('type', '=', 'operation.performed').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const { writeEntry } = await import('./service');
    await writeEntry({ type: 'operation.performed', ...JSON.parse(ev.payload) } as never, t().ctx, { eventId: Number(ev.id), at: Number(ev.create_time) });
    const after = await t().db.selectFrom('audit_entry').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('reads events written before issue 18 (path and msg only) into entries', async () => {
    await t().ctx.events.emit(t().db, { type: 'operation.performed', tenant_id: a.account.id, ram_id: ram.id, path: '/router/edit', msg: '旧事件' });
    const { rows } = await entries(t(), a.token, { area: 'router' });
    expect(rows.find((r: AuditEntry) => r.msg === '旧事件')).toMatchObject({ who: 'ram', actor_name: ram.username, kind: 'other', changes: [] });
  });
});

describeEachDatabase("audit trail: the operator's CLI", (t) => {
  it("writes an operator entry into the trail of the tenant a command changed, and none for a command that changes nothing", async () => {
    const a = await newAccount(t());
    const res = await ops(t(), ['tenants', 'plan', a.username, '--dns-quantity', '5']);
    expect(res.code, res.err).toBe(0);
    const { rows } = await entries(t(), a.token);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ who: 'operator', source: 'cli', method: 'CLI', path: '/ops/tenants/plan', area: 'ops', kind: 'update', object_type: 'account', object_id: String(a.account.id) });
    expect(rows[0]!.actor_name).not.toBe('');
    // In Chinese: the command's name, not its English answer for the terminal; the operator as 平台运营人员.
    expect(rows[0]).toMatchObject({ action: '修改套餐', msg: '修改套餐', user_agent: '' });
    expect(auditWhoText(rows[0]!)).toBe(M.auditWhoOperator);
    expect(rows[0]!.changes[0]!.fields).toContainEqual({ field: 'dns_quantity', before: t().ctx.config.defaultPlan.dns_quantity, after: 5 });
    // A listing changes nothing: no entry.
    expect((await ops(t(), ['tenants', 'show', a.username])).code).toBe(0);
    expect((await entries(t(), a.token)).count).toBe(1);
    // Other tenants' trails stay empty.
    const b = await newAccount(t());
    expect((await entries(t(), b.token)).count).toBe(0);
  });
});

describeEachDatabase('audit trail: every action has its name', (t) => {
  it('names every call that writes an entry (a signed-in POST) and every operator command, in Chinese', async () => {
    const audited = t().app.endpoints.map((x) => x.endpoint).filter((e) => e.method === 'POST' && e.access !== 'public' && e.access !== 'member' && !e.changesNothing);
    expect(audited.length).toBeGreaterThan(50);
    expect(audited.filter((e) => auditActionKnown(e.path) === undefined).map((e) => e.path)).toEqual([]);
    // Every command, as `hublink ops help all` lists them.
    const commands = [...(await ops(t(), ['help', 'all'])).out.matchAll(/^usage: hublink ops (\S+) (\S+)/gm)].map((m) => `/ops/${m[1]}/${m[2]}`);
    expect(commands.length).toBeGreaterThan(30);
    expect(commands.filter((p) => auditActionKnown(p) === undefined)).toEqual([]);
    for (const p of [...audited.map((e) => e.path), ...commands]) expect(auditActionKnown(p)).toMatch(/^[\u4e00-\u9fff]/);
  });
});
