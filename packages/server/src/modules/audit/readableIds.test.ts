import ExcelJS from 'exceljs';
import { CODE, editRam, editRole, LIMITS, auditExport, auditList, auditReference, type AuditEntry, type AuditField } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { captured, openScope } from '../../core/audit';
import { isAudited, keyColumnOf } from '../../db/owners';
import { describeEachDatabase, FULL_ROLE, newAccount, newRamAccount, tablesOf, type TestApp } from '../../../test/helpers';
import { seedFreshMembers, seedNetwork } from '../../../test/networks';

/** Issue 31: a changed column holding another row's id carries that row's name as it was at the change. */

type Main = Awaited<ReturnType<typeof newAccount>>;

async function entries(t: TestApp, token: string): Promise<AuditEntry[]> {
  await t.ctx.events.settle();
  const res = await t.call(auditList, { token, query: { limit: LIMITS.maxPageLimit } });
  expect(res.code).toBe(CODE.ok);
  return res.data!;
}

const roleField = (e: AuditEntry | undefined): AuditField | undefined => e?.changes.find((c) => c.table === 'ram_account')?.fields.find((f) => f.field === 'role_id');

describeEachDatabase('audit trail: ids recorded with the names they had', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  const newRole = async (tenantId: number, name: string) => {
    const now = Date.now();
    const r = await t()
      .db.insertInto('ram_role')
      .values({ tenant_id: tenantId, name, name_key: name.toLowerCase(), note: '', auth: JSON.stringify(FULL_ROLE), create_time: now, update_time: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    return r.id;
  };

  it("records a sub-account's role change with both roles' names, and a later rename leaves the entry as it was", async () => {
    const ram = await newRamAccount(t(), a.account.id);
    const oldName = (await t().db.selectFrom('ram_role').select('name').where('id', '=', ram.roleId).executeTakeFirstOrThrow()).name;
    const other = await newRole(a.account.id, '审计员');
    const res = await t().call(editRam, { token: a.token, body: { id: ram.id, role_id: other, nickname: '子账号' } });
    expect(res.code).toBe(CODE.ok);

    const field = roleField((await entries(t(), a.token)).find((e) => e.path === '/ram/edit'));
    expect(field).toEqual({ field: 'role_id', before: ram.roleId, after: other, before_name: oldName, after_name: '审计员' });

    // The role is renamed afterwards: the entry keeps the name the role had when the change was made.
    const rename = await t().call(editRole, { token: a.token, body: { id: other, name: '安全审计员', note: '', auth: FULL_ROLE } });
    expect(rename.code).toBe(CODE.ok);
    const again = roleField((await entries(t(), a.token)).find((e) => e.path === '/ram/edit'));
    expect(again?.after_name).toBe('审计员');
    // The export reads it the same way.
    const file = await t().call(auditExport, { token: a.token, query: { area: 'ram' } });
    expect(file.code).toBe(CODE.ok);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(file.data!.data, 'base64') as unknown as ArrayBuffer);
    const changes = String(wb.worksheets[0]!.getRow(2).getCell(wb.worksheets[0]!.columnCount).value);
    expect(changes).toContain(`角色: ${oldName} → 审计员`);
    // The rename itself is an entry whose change names the role by its new and old name.
    const renamed = (await entries(t(), a.token)).find((e) => e.path === '/ram_role/edit');
    expect(renamed?.changes.flatMap((c) => c.fields).find((f) => f.field === 'name')).toMatchObject({ before: '审计员', after: '安全审计员' });
  });

  it("never names an id from another tenant's rows, and names a row the same call deleted from its captured delete", async () => {
    const ram = await newRamAccount(t(), a.account.id);
    const foreign = await newRole(b.account.id, '别家角色');
    const gone = await newRole(a.account.id, '将删除');
    const now = Date.now();
    const token = await t()
      .db.insertInto('api_token')
      .values({ tenant_id: a.account.id, name: '审计令牌', prefix: 'hlk_audit31', token_hash: `h${now}`, scope: 'role', role_id: gone, create_time: now, expires_at: now + 86_400_000 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const scope = openScope();
    await captured(scope, async () => {
      // A write the services never make (they check the role is the tenant's): the id names no row of this tenant.
      await t().db.updateTable('ram_account').set({ role_id: foreign }).where('id', '=', ram.id).where('tenant_id', '=', a.account.id).execute();
      // The role goes first, then the token that named it: the token's role is named from the role's captured delete.
      await t().db.deleteFrom('ram_role').where('id', '=', gone).where('tenant_id', '=', a.account.id).execute();
      await t().db.deleteFrom('api_token').where('id', '=', token.id).execute();
    });
    const moved = scope.changes.find((c) => c.table === 'ram_account')?.fields.find((f) => f.field === 'role_id');
    expect(moved).toMatchObject({ before: ram.roleId, after: foreign, before_name: expect.stringMatching(/^测试角色/) as unknown });
    expect(moved).not.toHaveProperty('after_name');
    const tokenRole = scope.changes.find((c) => c.table === 'api_token')?.fields.find((f) => f.field === 'role_id');
    expect(tokenRole).toMatchObject({ before: gone, after: null, before_name: '将删除' });
  });

  it("names a network member's network, member and chosen centers (a list of ids) in the tenant's own rows", async () => {
    const names = await seedFreshMembers(t(), a.account.id, 3);
    const net = await seedNetwork(t(), a.account.id, { center: [names[0]!, names[1]!], point: [names[2]!], name: '审计31网络' });
    const rows = await t().db.selectFrom('member').select(['id', 'router_name']).where('tenant_id', '=', a.account.id).where('router_name', 'in', names).execute();
    const idOf = (n: string) => rows.find((r) => r.router_name === n)!.id;
    const scope = openScope();
    await captured(scope, async () => {
      const list = JSON.stringify([idOf(names[0]!), idOf(names[1]!), 999_999]);
      await t().db.updateTable('network_member').set({ link_centers: list }).where('network_id', '=', net.id).where('member_id', '=', idOf(names[2]!)).execute();
      await t().db.deleteFrom('network_member').where('network_id', '=', net.id).where('member_id', '=', idOf(names[1]!)).execute();
    });
    const [update, del] = scope.changes;
    expect(update?.fields.find((f) => f.field === 'link_centers')).toMatchObject({ before: null, after_name: `${names[0]}、${names[1]}、#999999` });
    expect(del?.fields.find((f) => f.field === 'network_id')).toMatchObject({ before: net.id, before_name: '审计31网络' });
    expect(del?.fields.find((f) => f.field === 'member_id')).toMatchObject({ before: idOf(names[1]!), before_name: names[1] });
  });

  it('names every id column of every audited table (the ids of other systems excepted)', async () => {
    // Not rows of ours: an open platform's app, agent and corp ids, a ticket image's public file id.
    const FOREIGN = new Set(['tenant_id', 'app_id', 'agent_id', 'corp_id', 'file_id']);
    const unnamed = (await tablesOf(t()))
      .filter((table) => isAudited(table.name))
      .flatMap((table) => table.columns.filter((c) => c.endsWith('_id') && !FOREIGN.has(c) && c !== keyColumnOf(table.name)).map((c) => `${table.name}.${c}`))
      .filter((tc) => !auditReference(tc.split('.')[0]!, tc.split('.')[1]!));
    expect(unnamed).toEqual([]);
  });
});
