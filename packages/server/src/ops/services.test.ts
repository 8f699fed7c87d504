import { fmt, LIMITS, listServices, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { ops } from '../../test/ops';
import { formatTime, startOfDay } from '../core/time';

describeEachDatabase('hublink ops services', (t) => {
  const a = { id: 0, username: '', token: '' };
  const b = { id: 0, username: '', token: '' };
  const rows = () => t().db.selectFrom('service').selectAll().orderBy('id').execute();
  const seen = async (token: string) => (await t().call(listServices, { token, query: { page: 1 } })).data!;
  const grant = (tenant: string, over: Record<string, string> = {}) => {
    const o = { name: '成员扩容包', quantity: '5', start: '2025-01-01', expire: '2026-01-01', ...over };
    return ops(t(), ['services', 'grant', tenant, '--name', o.name, '--quantity', o.quantity, '--start', o.start, '--expire', o.expire, '--json']);
  };

  beforeAll(async () => {
    for (const x of [a, b]) {
      const r = await newAccount(t());
      Object.assign(x, { id: r.account.id, username: r.username, token: r.token });
    }
  });

  it('grants a service the tenant then sees under its services, by username or id', async () => {
    const tz = t().ctx.config.timezone;
    const res = await grant(a.username, { name: 'POP流量包', quantity: '100', start: '2025-03-01', expire: '2025-04-01T12:30:00+08:00' });
    expect(res.code, res.err).toBe(0);
    const { id } = res.json<{ id: number }>();
    expect(await seen(a.token)).toContainEqual({
      id,
      service_name: 'POP流量包',
      quantity: 100,
      start_time: formatTime(startOfDay('2025-03-01', tz), tz),
      expired_time: formatTime(Date.parse('2025-04-01T04:30:00Z'), tz),
    });
    const byId = await grant(String(b.id), { name: 'B服务' });
    expect(byId.code, byId.err).toBe(0);
    expect((await seen(b.token)).map((s) => s.service_name)).toEqual(['B服务']);
    expect((await seen(a.token)).map((s) => s.id)).not.toContain(byId.json<{ id: number }>().id);
  });

  it('refuses bad arguments with the console’s messages (exit 2), granting nothing', async () => {
    const before = await rows();
    const cases: [Record<string, string>, string][] = [
      [{ name: ' ' }, `--name: ${M.serviceNameRequired}`],
      [{ name: 'x'.repeat(LIMITS.serviceNameMax + 1) }, `--name: ${fmt(M.serviceNameTooLong, { n: LIMITS.serviceNameMax })}`],
      [{ quantity: '0' }, `--quantity: ${M.serviceQuantityInvalid}`],
      [{ quantity: '1.5' }, `--quantity: ${M.serviceQuantityInvalid}`],
      [{ quantity: 'many' }, `--quantity: ${M.serviceQuantityInvalid}`],
      [{ quantity: String(LIMITS.maxId + 1) }, `--quantity: ${M.serviceQuantityInvalid}`],
      [{ start: '2025-02-30' }, '--start: start must be a date'],
      [{ expire: 'tomorrow' }, '--expire: expire must be a date'],
    ];
    for (const [over, msg] of cases) {
      const res = await grant(a.username, over);
      expect(res.code, msg).toBe(2);
      expect(res.err).toContain(msg);
    }
    const missing = await ops(t(), ['services', 'grant', a.username, '--quantity', '1', '--start', '2025-01-01', '--expire', '2026-01-01']);
    expect(missing).toMatchObject({ code: 2, err: expect.stringContaining(`--name: ${M.serviceNameRequired}`) });
    expect(await rows()).toEqual(before);
  });

  it('refuses an expiry before the start or an unknown tenant (exit 1), granting nothing', async () => {
    const before = await rows();
    expect(await grant(a.username, { start: '2025-06-01', expire: '2025-06-01' })).toMatchObject({ code: 1, err: `${M.serviceExpiryBeforeStart}\n` });
    expect(await grant('nobody-here')).toMatchObject({ code: 1, err: 'no tenant nobody-here\n' });
    expect(await rows()).toEqual(before);
  });

  it('lists what the tenant’s console shows, newest first, bounded by --limit', async () => {
    for (const start of ['2024-01-01', '2024-06-01']) expect((await grant(a.username, { start })).code).toBe(0);
    const console = await seen(a.token);
    const res = await ops(t(), ['services', 'list', a.username, '--json']);
    expect(res.code, res.err).toBe(0);
    expect(res.json()).toEqual(console);
    expect(res.json<{ start_time: string }[]>().map((s) => s.start_time)).toEqual(console.map((s) => s.start_time).sort().reverse());
    expect((await ops(t(), ['services', 'list', String(a.id), '--limit', '2', '--json'])).json()).toEqual(console.slice(0, 2));
    const table = await ops(t(), ['services', 'list', b.username]);
    expect(table.out.split('\n')[0]).toMatch(/^id\s+service_name\s+quantity\s+start_time\s+expired_time$/);
    expect(table.out).toContain('B服务');
    expect(table.out).not.toContain('POP流量包');
    expect(await ops(t(), ['services', 'list', a.username, '--limit', '0'])).toMatchObject({ code: 2, err: expect.stringContaining('--limit: limit must be at least 1') });
    expect(await ops(t(), ['services', 'list', 'nobody-here'])).toMatchObject({ code: 1, err: 'no tenant nobody-here\n' });
  });

  it('revokes a service of the tenant; another tenant’s or an unknown one is refused and kept', async () => {
    const id = (await grant(a.username, { name: '待收回' })).json<{ id: number }>().id;
    const bId = (await seen(b.token))[0]!.id;
    const before = await rows();
    expect(await ops(t(), ['services', 'revoke', a.username, String(bId)])).toMatchObject({ code: 1, err: `tenant ${a.username} has no service ${bId}\n` });
    expect(await ops(t(), ['services', 'revoke', a.username, '99999999'])).toMatchObject({ code: 1 });
    expect(await ops(t(), ['services', 'revoke', a.username, 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('<id>: the service id must be a whole number') });
    expect(await ops(t(), ['services', 'revoke', a.username])).toMatchObject({ code: 2, err: expect.stringContaining('<id>: the service id is required') });
    expect(await rows()).toEqual(before);

    const res = await ops(t(), ['services', 'revoke', a.username, String(id)]);
    expect(res).toMatchObject({ code: 0, out: `service ${id} of ${a.username} revoked\n` });
    expect((await seen(a.token)).map((s) => s.id)).not.toContain(id);
    expect(await rows()).toEqual(before.filter((r) => r.id !== id));
  });
});
