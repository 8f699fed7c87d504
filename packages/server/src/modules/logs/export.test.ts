import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { CODE, exportLogs, LIMITS, LOG_EXPORT_COLUMNS, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, FULL_ROLE, newAccount, ramToken } from '../../../test/helpers';
import { formatTime, startOfDay } from '../../core/time';
import { connection, HOUR, onlineSession, softwareLogin } from './fixtures';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** Every row of the first sheet of a base64 workbook, header included, as the cells' text. */
async function sheetRows(base64: string): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(base64, 'base64') as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]!.eachRow((r) => rows.push((r.values as unknown[]).slice(1).map((v) => String(v ?? ''))));
  return rows;
}

describeEachDatabase('GET /logs/export', (t) => {
  let a: Main;
  let tz: string;
  const day = (date: string, hours = 12) => startOfDay(date, tz) + hours * HOUR;
  const exported = async (query: Record<string, unknown>, token = a.token) => {
    const res = await t().call(exportLogs, { token, query });
    expect(res, res.msg).toMatchObject({ code: CODE.ok, data: { file_name: expect.any(String), data: expect.any(String) } });
    expect(res.file).toBeUndefined();
    const { file_name, data } = res.data!;
    // Standard padded base64 in one line, which the console's atob decodes.
    expect(data).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(data.length % 4).toBe(0);
    return { name: file_name, size: data.length, rows: await sheetRows(data) };
  };

  beforeAll(async () => {
    a = await newAccount(t());
    tz = t().ctx.config.timezone;
    await connection(t(), a.account.id, 'gw_office', day('2025-06-01'), 1, { remote_ip: '198.51.100.1', remote_port: 51000, version: '3.0.9' });
    await connection(t(), a.account.id, 'gw_office', day('2025-06-01', 13), 0, { remote_ip: '198.51.100.1', remote_port: 51000, version: '3.0.9' });
    await connection(t(), a.account.id, 'laptop_li', day('2025-06-05'), 1);
    await softwareLogin(t(), a.account.id, 'laptop_li', day('2025-06-02'), { ip: '192.168.1.5', os: 'macos' });
    await onlineSession(t(), a.account.id, { router_name: 'gw_office', network_number: 'NAAA', link_router_name: 'center1', start: day('2025-06-03'), online_time: 600 });
    await onlineSession(t(), a.account.id, { router_name: 'gw_branch', network_number: 'NBBB', link_router_name: 'center2', start: day('2025-06-04'), end: null });
    await onlineSession(t(), a.account.id, { router_name: 'laptop_li', mode: 'pop', pop_name: '上海POP', area: '华东', start: day('2025-06-03'), online_time: 600 });
    const other = await newAccount(t());
    await connection(t(), other.account.id, 'gw_office', day('2025-06-02'), 1);
  });

  it('writes the connect log with its Chinese headers, filtered by name and days, newest first', async () => {
    const { name, rows } = await exported({ type: 'connect', search: 'gw_', start_time: '2025-06-01', end_time: '2025-06-02' });
    expect(name).toMatch(/^连接日志-\d{8}\.xlsx$/);
    expect(rows).toEqual([
      [...LOG_EXPORT_COLUMNS.connect],
      ['gw_office', '198.51.100.1', '51000', '3.0.9', M.logConnectDown, formatTime(day('2025-06-01', 13), tz)],
      ['gw_office', '198.51.100.1', '51000', '3.0.9', M.logConnectUp, formatTime(day('2025-06-01'), tz)],
    ]);
    expect(rows[0]).toEqual(['成员', '远程地址', '远程端口', '版本', '状态', '时间']);
  });

  it('writes the p2p and POP online logs; a session still up says so', async () => {
    const p2p = await exported({ type: 'online' });
    expect(p2p.rows[0]).toEqual([...LOG_EXPORT_COLUMNS.online]);
    expect(p2p.rows.slice(1).map((r) => [r[0], r[1], r[2], r[6]])).toEqual([
      ['gw_branch', 'NBBB', 'center2', M.logOngoing],
      ['gw_office', 'NAAA', 'center1', formatTime(day('2025-06-03') + 600_000, tz)],
    ]);
    const pop = await exported({ type: 'pop_online' });
    expect(pop.rows).toEqual([
      [...LOG_EXPORT_COLUMNS.pop_online],
      ['laptop_li', '上海POP', '华东', '1.2.3.4', '10.8.0.2', formatTime(day('2025-06-03'), tz), formatTime(day('2025-06-03') + 600_000, tz), '600'],
    ]);
  });

  it('writes the software login records', async () => {
    const { rows } = await exported({ type: 'software_login' });
    expect(rows).toEqual([[...LOG_EXPORT_COLUMNS.software_login], ['laptop_li', '192.168.1.5', 'macos', '2.0.1', 'Lenovo', 'X1', '11', formatTime(day('2025-06-02'), tz)]]);
  });

  it('answers 数据为空，请重新筛选数据！ when nothing matches, and 422 for a bad type or date', async () => {
    expect(await t().call(exportLogs, { token: a.token, query: { type: 'connect', search: 'nobody' } })).toMatchObject({ code: 422, msg: M.exportEmpty });
    expect(await t().call(exportLogs, { token: a.token, query: { type: 'audit' } })).toMatchObject({ code: 422, msg: M.validationFailed });
    expect(await t().call(exportLogs, { token: a.token, query: {} })).toMatchObject({ code: 422 });
    expect(await t().call(exportLogs, { token: a.token, query: { type: 'online', end_time: '2025-6-1' } })).toMatchObject({ code: 422, msg: M.logDateInvalid });
  });

  it('lets sub-accounts export online, POP and connect logs but not software logins; a role limited to networks gets its p2p rows', async () => {
    const limited = await ramToken(t(), a.account.id, { ...FULL_ROLE, 'easylink.network': { ...FULL_ROLE['easylink.network'], network: ['NAAA'] } });
    expect((await exported({ type: 'connect' }, limited)).rows).toHaveLength(4);
    expect((await exported({ type: 'online' }, limited)).rows.slice(1).map((r) => r[0])).toEqual(['gw_office']);
    expect((await exported({ type: 'pop_online' }, limited)).rows).toHaveLength(2);
    expect(await t().call(exportLogs, { token: limited, query: { type: 'software_login' } })).toMatchObject({ code: 403, msg: M.deniedMainOnly });
  });

  it('writes at most LIMITS.logExportRowsMax rows, the newest', async () => {
    const big = await newAccount(t());
    const n = LIMITS.logExportRowsMax + 1;
    const base = day('2025-07-01');
    // One statement on either database: rows 1..n, row i one second after row i-1.
    await sql`
      WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ${n})
      INSERT INTO connect_log (tenant_id, member_id, router_name, remote_ip, remote_port, version, online, session_id, create_time)
      SELECT ${big.account.id}, 1, 'gw_bulk', '203.0.113.1', 40000, '3.1.0', 1, ${`bulk-${big.account.id}-`} || CAST(i AS VARCHAR(12)), CAST(${base} AS BIGINT) + CAST(i AS BIGINT) * 1000 FROM seq
    `.execute(t().db);
    const { rows, size } = await exported({ type: 'connect' }, big.token);
    expect(rows).toHaveLength(LIMITS.logExportRowsMax + 1);
    // At the cap the envelope stays a few MB (docs/decisions.md).
    expect(size).toBeLessThan(4_000_000);
    expect(rows[1]![5]).toBe(formatTime(base + n * 1000, tz));
    expect(rows.at(-1)![5]).toBe(formatTime(base + 2 * 1000, tz));
  }, 120_000);
});
