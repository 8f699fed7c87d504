import { addRouter } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { FlowWriter, minuteOf } from './flows';
import { TrafficHistoryWriter } from './trafficHistory';

type Main = Awaited<ReturnType<typeof newAccount>>;

let seq = 0;

describeEachDatabase('gateway: flow and traffic minutes', (t) => {
  let a: Main;

  async function hardware() {
    const username = `fw${String(Date.now() % 100_000)}${++seq}`;
    expect(await t().call(addRouter, { token: a.token, body: { router_type: 1, username, password: 'pass1234', note: '' } })).toMatchObject({ code: 200 });
    return (await t().db.selectFrom('member').select('id').where('router_name', '=', username).executeTakeFirstOrThrow()).id;
  }

  beforeAll(async () => {
    a = await newAccount(t());
  });

  it('FlowWriter adds up records of one minute, within a flush and across flushes', async () => {
    const id = await hardware();
    const w = new FlowWriter(t().db);
    const time = Math.floor(Date.now() / 60_000) * 60;
    w.add(id, a.account.id, [
      { kind: 'app', name: 'x', download: 1, upload: 2, time },
      { kind: 'app', name: 'x', download: 10, upload: 20, time: time + 59 },
      { kind: 'orig', name: 'x', download: 5, upload: 5, time },
      { kind: 'app', name: 'x', download: 1000, upload: 1000, time: time + 60 },
    ]);
    expect(w.pending).toBe(3);
    await w.flush();
    expect(w.pending).toBe(0);
    w.add(id, a.account.id, [{ kind: 'app', name: 'x', download: 100, upload: 200, time: time + 30 }]);
    await w.flush();
    const rows = await t().db.selectFrom('flow_minute').select(['kind', 'download', 'upload', 'minute']).where('member_id', '=', id).orderBy('minute').orderBy('kind').execute();
    expect(rows.map((r) => ({ ...r, download: Number(r.download), upload: Number(r.upload), minute: Number(r.minute) }))).toEqual([
      { kind: 'app', download: 111, upload: 222, minute: time * 1000 },
      { kind: 'orig', download: 5, upload: 5, minute: time * 1000 },
      { kind: 'app', download: 1000, upload: 1000, minute: (time + 60) * 1000 },
    ]);
  });

  it('drops control characters from names, and records whose name is left empty', async () => {
    const id = await hardware();
    const w = new FlowWriter(t().db);
    const time = Math.floor(Date.now() / 1000);
    w.add(id, a.account.id, [
      { kind: 'app', name: 'we\u0000chat', download: 1, upload: 1, time },
      { kind: 'app', name: '\u0000\u0007', download: 1, upload: 1, time },
    ]);
    await w.flush();
    expect((await t().db.selectFrom('flow_minute').select('name').where('member_id', '=', id).execute()).map((r) => r.name)).toEqual(['wechat']);
  });

  it("a deleted member's rows do not stop the others of the batch", async () => {
    const keep = await hardware();
    const w = new FlowWriter(t().db);
    const time = Math.floor(Date.now() / 1000);
    w.add(999_999, a.account.id, [{ kind: 'app', name: 'gone', download: 1, upload: 1, time }]);
    w.add(keep, a.account.id, [{ kind: 'app', name: 'kept', download: 1, upload: 1, time }]);
    await w.flush();
    expect(await t().db.selectFrom('flow_minute').select('name').where('name', 'in', ['gone', 'kept']).execute()).toEqual([{ name: 'kept' }]);
  });

  it('TrafficHistoryWriter sums the interfaces of one report and counts reports per minute, across flushes', async () => {
    const id = await hardware();
    const w = new TrafficHistoryWriter(t().db);
    const time = Math.floor(Date.now() / 60_000) * 60;
    w.add(id, a.account.id, [
      { interface: 'eth0', time, down: 2, upload: 1 },
      { interface: 'eth1', time, down: 1, upload: 1 },
    ]);
    await w.flush();
    w.add(id, a.account.id, [{ interface: 'eth0', time: time + 5, down: 1, upload: 0 }]);
    await w.flush();
    const rows = await t().db.selectFrom('traffic_minute').selectAll().where('member_id', '=', id).execute();
    expect(rows.map((r) => ({ minute: Number(r.minute), down_sum: Number(r.down_sum), upload_sum: Number(r.upload_sum), samples: Number(r.samples) }))).toEqual([
      { minute: minuteOf(time), down_sum: 4, upload_sum: 2, samples: 2 },
    ]);
  });
});
