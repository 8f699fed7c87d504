import { CODE, fmt, LIMITS, listServices, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../../test/helpers';
import { formatTime } from '../../core/time';
import { grant } from './service';

const DAY = 86_400_000;

describeEachDatabase('GET /account/service and granting a service', (t) => {
  let a = { id: 0, token: '' };
  let b = { id: 0, token: '' };
  let ramToken = '';
  /** A's services, oldest start first. */
  let aIds: number[] = [];
  let bId = 0;
  const base = Date.UTC(2025, 0, 1, 0, 0, 0);

  beforeAll(async () => {
    const ra = await newAccount(t());
    const rb = await newAccount(t());
    a = { id: ra.account.id, token: ra.token };
    b = { id: rb.account.id, token: rb.token };
    const ram = await newRamAccount(t(), a.id);
    ramToken = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    aIds = [];
    for (let i = 0; i < 12; i++) {
      aIds.push(await grant(t().ctx, a.id, { service_name: `成员扩容包${i}`, quantity: i + 1, start_time: base + i * DAY, expired_time: base + (i + 365) * DAY }));
    }
    bId = await grant(t().ctx, b.id, { service_name: 'POP流量包', quantity: 100, start_time: base, expired_time: base + 30 * DAY });
  });

  it('lists the tenant’s services 10 a page, newest first, with the total', async () => {
    const tz = t().ctx.config.timezone;
    const p1 = await t().call(listServices, { token: a.token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((s) => s.id)).toEqual([...aIds].reverse().slice(0, LIMITS.pageSize));
    expect(p1.data![0]).toEqual({
      id: aIds[11],
      service_name: '成员扩容包11',
      quantity: 12,
      start_time: formatTime(base + 11 * DAY, tz),
      expired_time: formatTime(base + 376 * DAY, tz),
    });
    const p2 = await t().call(listServices, { token: a.token, query: { page: 2 } });
    expect(p2.data!.map((s) => s.id)).toEqual([aIds[1], aIds[0]]);
  });

  it('shows another tenant none of them', async () => {
    const pb = await t().call(listServices, { token: b.token, query: { page: 1 } });
    expect(pb).toMatchObject({ code: 200, count: 1 });
    expect(pb.data!.map((s) => s.id)).toEqual([bId]);
    const fresh = await newAccount(t());
    expect(await t().call(listServices, { token: fresh.token, query: { page: 1 } })).toMatchObject({ code: 200, count: 0, data: [] });
  });

  it("shows a sub-account its tenant's services", async () => {
    const res = await t().call(listServices, { token: ramToken, query: { page: 1 } });
    expect(res).toMatchObject({ code: 200, count: 12 });
    expect(res.data!.map((s) => s.id)).toEqual([...aIds].reverse().slice(0, LIMITS.pageSize));
  });

  it('refuses a bad page and a missing token', async () => {
    expect(await t().call(listServices, { token: a.token, query: { page: 'x' } })).toMatchObject({ code: CODE.invalid, msg: M.pageInvalid });
    expect(await t().call(listServices, { query: { page: 1 } })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
  });

  it('refuses to grant a service with a bad name, quantity or period, or to an unknown tenant', async () => {
    const rows = async () => t().db.selectFrom('service').selectAll().orderBy('id').execute();
    const before = await rows();
    const ok = { service_name: '成员扩容包', quantity: 1, start_time: base, expired_time: base + DAY };
    const cases: [Parameters<typeof grant>[2], string][] = [
      [{ ...ok, service_name: '  ' }, M.serviceNameRequired],
      [{ ...ok, service_name: 'x'.repeat(LIMITS.serviceNameMax + 1) }, fmt(M.serviceNameTooLong, { n: LIMITS.serviceNameMax })],
      [{ ...ok, quantity: 0 }, M.serviceQuantityInvalid],
      [{ ...ok, quantity: 1.5 }, M.serviceQuantityInvalid],
      [{ ...ok, start_time: -1 }, M.serviceTimeInvalid],
      [{ ...ok, expired_time: base }, M.serviceExpiryBeforeStart],
    ];
    for (const [input, msg] of cases) {
      await expect(grant(t().ctx, a.id, input), msg).rejects.toMatchObject({ code: CODE.invalid, message: msg });
    }
    await expect(grant(t().ctx, 99999999, ok)).rejects.toMatchObject({ code: CODE.notFound, message: M.accountNotFound });
    expect(await rows()).toEqual(before);
  });
});
