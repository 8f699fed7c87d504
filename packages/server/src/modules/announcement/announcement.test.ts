import { announcementInfo, CODE, listAnnouncements, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn } from '../../../test/helpers';
import { publish } from './service';

describeEachDatabase('GET /announcements/lists and /announcements/info', (t) => {
  const HOUR = 3600_000;
  let token = '';
  let ids: number[] = [];
  let future = 0;

  // Twelve released announcements an hour apart, and one for later.
  beforeAll(async () => {
    token = (await newAccount(t())).token;
    const base = Date.now() - 100 * HOUR;
    ids = [];
    for (let i = 0; i < 12; i++) {
      ids.push(await publish(t().ctx, { title: `公告${i}`, tag: '通知', content: `<p>内容${i}</p>`, release_time: base + i * HOUR }));
    }
    future = await publish(t().ctx, { title: '未来公告', tag: '预告', content: '<p>later</p>', release_time: Date.now() + 10 * HOUR });
  });

  it('lists 10 per page, newest first, with the total count; later ones are not shown', async () => {
    const p1 = await t().call(listAnnouncements, { token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((a) => a.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(p1.data![0]).toEqual({ id: ids[11], title: '公告11', tag: '通知', release_time: expect.stringMatching(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/) });
    const p2 = await t().call(listAnnouncements, { token, query: { page: 2 } });
    expect(p2.data!.map((a) => a.id)).toEqual([ids[1], ids[0]]);
    expect(p2.count).toBe(12);
    const five = await t().call(listAnnouncements, { token, query: { page: 1, limit: 5 } });
    expect(five.data).toHaveLength(5);
    expect(p1.data!.some((a) => a.id === future)).toBe(false);
  });

  it('refuses a bad page or limit', async () => {
    for (const query of [{ page: 0 }, { page: 'x' }, { limit: 101 }]) {
      expect((await t().call(listAnnouncements, { token, query })).code, JSON.stringify(query)).toBe(CODE.invalid);
    }
  });

  it('shows one announcement with its content; an unknown or later one is 204', async () => {
    const res = await t().call(announcementInfo, { token, query: { id: ids[3]! } });
    expect(res.data).toMatchObject({ id: ids[3], title: '公告3', tag: '通知', content: '<p>内容3</p>' });
    expect(await t().call(announcementInfo, { token, query: { id: 999999 } })).toMatchObject({ code: CODE.notFound, msg: M.notFound, status: 200 });
    expect(await t().call(announcementInfo, { token, query: { id: future } })).toMatchObject({ code: CODE.notFound });
    expect((await t().call(announcementInfo, { token, query: { id: 'abc' } })).code).toBe(CODE.invalid);
    expect((await t().call(announcementInfo, { token, query: { id: 2_147_483_648 } })).code).toBe(CODE.invalid);
  });

  it('needs a token; a sub-account may read', async () => {
    expect(await t().call(listAnnouncements, { query: { page: 1 } })).toMatchObject({ code: 2001, status: 401 });
    expect(await t().call(announcementInfo, { query: { id: ids[0]! } })).toMatchObject({ code: 2001, status: 401 });
    const a = await newAccount(t());
    const ram = await newRamAccount(t(), a.account.id);
    const ramToken = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    expect(await t().call(listAnnouncements, { token: ramToken, query: { page: 1 } })).toMatchObject({ code: 200, count: 12 });
  });
});
