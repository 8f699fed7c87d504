import { listMessages, messageInfo } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { writeAlertMessage } from './alerts';

describeEachDatabase('alert messages (alert.raised)', (t) => {
  it('writes an alert into the message centre once per alert, sanitised, however often it is told', async () => {
    const a = await newAccount(t());
    const event = { type: 'alert.raised' as const, tenant_id: a.account.id, alert_id: 7, title: '【监控告警】设备离线：hq', content: '<p>设备 hq 离线。</p><script>alert(1)</script>' };
    await t().ctx.events.emit(t().db, event);
    await t().ctx.events.settle();
    // A second delivery of the same alert (events are at least once), and the handler again.
    await t().ctx.events.emit(t().db, event);
    await t().ctx.events.settle();
    await writeAlertMessage(event, t().ctx);
    const list = await t().call(listMessages, { token: a.token, query: { page: 1 } });
    expect(list.count).toBe(1);
    expect(list.data![0]).toMatchObject({ title: event.title, type: 'alert', status: 0 });
    const info = await t().call(messageInfo, { token: a.token, query: { message_id: list.data![0]!.message_id } });
    expect(info.data!.content).toBe('<p>设备 hq 离线。</p>');
    // Another alert is another message; another tenant's alert of the same id is that tenant's.
    await writeAlertMessage({ ...event, alert_id: 8 }, t().ctx);
    const b = await newAccount(t());
    await writeAlertMessage({ ...event, tenant_id: b.account.id }, t().ctx);
    expect((await t().call(listMessages, { token: a.token, query: { page: 1 } })).count).toBe(2);
    expect((await t().call(listMessages, { token: b.token, query: { page: 1 } })).count).toBe(1);
  });
});
