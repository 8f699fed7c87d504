import { M, sendRegisterCode, type OutboxEntry } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, type TestApp } from '../../../test/helpers';

async function devGet<T>(t: TestApp, url: string, query: Record<string, string>) {
  const res = await t.app.inject({ method: 'GET', url, query });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data?: T } };
}

describeEachDatabase('GET /api/dev/* with HUBLINK_DEV_ENDPOINTS=1', (t) => {
  it('/api/dev/captcha answers the text of a captcha', async () => {
    const { uniqid } = await t().ctx.captcha.create();
    const res = await devGet<{ text: string }>(t(), '/api/dev/captcha', { uniqid });
    expect(res.body).toMatchObject({ code: 200 });
    expect(res.body.data!.text).toBe(await t().ctx.captcha.peek(uniqid));
    expect(res.body.data!.text).toHaveLength(4);
  });

  it('/api/dev/outbox lists the messages to a phone, newest first, with their codes', async () => {
    const phone = '+86 13312345678';
    await t().call(sendRegisterCode, { body: { send_type: 'phone', send_value: phone }, ip: t().nextIp() });
    const first = await t().lastCode(phone);
    await t().ageCodes(phone);
    await t().call(sendRegisterCode, { body: { send_type: 'phone', send_value: phone }, ip: t().nextIp() });
    const second = await t().lastCode(phone);

    const res = await devGet<OutboxEntry[]>(t(), '/api/dev/outbox', { to: phone });
    expect(res.body.code).toBe(200);
    const list = res.body.data!;
    expect(list).toHaveLength(2);
    expect(list.map((m) => m.code)).toEqual([second, first]);
    expect(list[0]).toMatchObject({ to: phone, channel: 'sms' });
    expect(list[0]!.body).toContain(second);
    expect(list[0]!.create_time).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('/api/dev/outbox takes an email in any case, and a phone whose + was decoded to a space', async () => {
    const email = 'Dev.Outbox@Example.com';
    await t().call(sendRegisterCode, { body: { send_type: 'email', send_value: email }, ip: t().nextIp() });
    const res = await devGet<OutboxEntry[]>(t(), '/api/dev/outbox', { to: email.toUpperCase() });
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data![0]).toMatchObject({ to: email.toLowerCase(), channel: 'email', code: await t().lastCode(email.toLowerCase()) });

    const phone = '+86 13312340000';
    await t().call(sendRegisterCode, { body: { send_type: 'phone', send_value: phone }, ip: t().nextIp() });
    // '?to=+86 133…' written without escaping arrives as ' 86 133…'.
    const raw = await t().app.inject({ method: 'GET', url: `/api/dev/outbox?to=+86%2013312340000` });
    expect((raw.json() as { data: OutboxEntry[] }).data.map((m) => m.to)).toEqual([phone]);
  });

  it('/api/dev/outbox answers an empty list for an address nothing was sent to', async () => {
    const res = await devGet<OutboxEntry[]>(t(), '/api/dev/outbox', { to: 'nobody@example.com' });
    expect(res.body).toEqual({ code: 200, msg: 'success', data: [] });
  });
});

describeEachDatabase(
  'GET /api/dev/* without HUBLINK_DEV_ENDPOINTS',
  (t) => {
    it('answers 404 for every development endpoint', async () => {
      const { uniqid } = await t().ctx.captcha.create();
      for (const [url, query] of [
        ['/api/dev/captcha', { uniqid }],
        ['/api/dev/outbox', { to: 'someone@example.com' }],
      ] as const) {
        const res = await devGet(t(), url, query);
        expect(res.status, url).toBe(404);
        expect(res.body, url).toEqual({ code: 404, msg: M.apiNotFound });
      }
    });
  },
  { config: { devEndpoints: false } },
);
