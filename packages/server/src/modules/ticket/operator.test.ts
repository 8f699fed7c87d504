import { appraiseSupportTicket, CODE, fmt, type EventPayload, LIMITS, listMessages, M, messageInfo, replySupportTicket, SUPPORT_STATUS, supportImageSrc, supportTicketInfo } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../../test/helpers';
import { GIF_1PX } from '../../../test/images';
import { ApiError } from '../../core/errors';
import { fileRow, PNG, raised, ticketRow } from './fixtures';
import { closeTicket, listOpenTickets, replyAsOperator } from './index';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** Expects an operator function to refuse with `code` and `msg`, and to change nothing. */
async function operatorRefused(t: TestApp, run: () => Promise<unknown>, code: number, msg: string) {
  const before = await t.snapshot();
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApiError);
  expect({ code: (err as ApiError).code, msg: (err as ApiError).message }).toEqual({ code, msg });
  expect(await t.snapshot()).toEqual(before);
}

const info = async (t: TestApp, token: string, number: string) => (await t.call(supportTicketInfo, { token, query: { ticket_number: number } })).data!;

describeEachDatabase('support tickets: the operator’s side', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('answers with images as the adviser: the ticket is replied and the tenant sees the answer', async () => {
    const number = await raised(t(), a.token);
    await replyAsOperator(t().ctx, number, { content: '  您好，请检查路由器的WAN口。\n谢谢  ', adviser: '客服小刘', images: [{ filename: 'wan.png', body: PNG }, { filename: 'step.gif', body: GIF_1PX }] });
    const ticket = await info(t(), a.token, number);
    expect(ticket.ticket_status).toBe(SUPPORT_STATUS.replied);
    expect(ticket.dialogue).toEqual([{ reply_type: 'service', reply_name: '客服小刘', reply_time: expect.any(String), dialogue_content: '您好，请检查路由器的WAN口。\n谢谢', images: [expect.any(Object), expect.any(Object)] }]);
    const [png, gif] = ticket.dialogue[0]!.images;
    expect(png!.src).toBe(supportImageSrc(png!.file_id));
    const served = await t().app.inject({ method: 'GET', url: png!.src, headers: { authorization: `Bearer ${a.token}` } });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    expect(await fileRow(t(), gif!.file_id)).toMatchObject({ tenant_id: a.account.id, state: 1, content_type: 'image/gif' });
    // The tenant's reply makes it pending again; the next answer replied.
    await t().call(replySupportTicket, { token: a.token, body: { ticket_number: number, content: '已检查，仍然不行' } });
    expect((await ticketRow(t(), number)).status).toBe(SUPPORT_STATUS.pending);
    await replyAsOperator(t().ctx, number, { content: '我们远程看一下', adviser: '客服小刘' });
    expect((await info(t(), a.token, number)).dialogue.map((d) => d.reply_type)).toEqual(['service', 'tenant', 'service']);
    expect((await ticketRow(t(), number)).status).toBe(SUPPORT_STATUS.replied);
  });

  it('tells the tenant in the message centre, once per answer, with a link to the ticket', async () => {
    const tenant = await newAccount(t());
    const number = await raised(t(), tenant.token, { title: '<b>打印机</b>&VPN' });
    await replyAsOperator(t().ctx, number, { content: '已处理', adviser: '客服<小刘>' });
    await t().ctx.events.settle();
    const list = await t().call(listMessages, { token: tenant.token, query: { page: 1 } });
    expect(list.count).toBe(1);
    expect(list.data![0]).toMatchObject({ title: fmt(M.supportNoticeTitle, { number }), type: 'ticket', status: 0 });
    const message = await t().call(messageInfo, { token: tenant.token, query: { message_id: list.data![0]!.message_id } });
    expect(message.data!.content).toBe(
      `<p>客服顾问客服&lt;小刘&gt;回复了您的工单“&lt;b&gt;打印机&lt;/b&gt;&amp;VPN”（${number}），请前往<a href="/ticket/detail?ticket_number=${number}" target="_blank" rel="noopener noreferrer">工单详情</a>查看。</p>`,
    );
    // A second answer is a second notice; the same event told twice writes nothing more.
    await replyAsOperator(t().ctx, number, { content: '再补充', adviser: '客服小刘' });
    await t().ctx.events.settle();
    const event = await t().db.selectFrom('event').select('payload').where('type', '=', 'ticket.replied').where('tenant_id', '=', tenant.account.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await t().ctx.events.emit(t().db, { type: 'ticket.replied', ...(JSON.parse(event.payload) as EventPayload<'ticket.replied'>) });
    await t().ctx.events.settle();
    expect((await t().call(listMessages, { token: tenant.token, query: { page: 1 } })).count).toBe(2);
    // The other tenant hears nothing.
    expect((await t().call(listMessages, { token: b.token, query: { page: 1 } })).count).toBe(0);
  });

  it('refuses an empty answer, a missing adviser, bad images, an unknown or closed ticket, changing nothing', async () => {
    const number = await raised(t(), a.token);
    const ctx = t().ctx;
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '  ', adviser: '客服' }), CODE.invalid, M.supportReplyRequired);
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: 'x'.repeat(LIMITS.supportContentMax + 1), adviser: '客服' }), CODE.invalid, fmt(M.supportReplyMax, { n: LIMITS.supportContentMax }));
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '好的', adviser: ' ' }), CODE.invalid, M.supportAdviserRequired);
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '好的', adviser: '客'.repeat(LIMITS.supportAdviserMax + 1) }), CODE.invalid, fmt(M.supportAdviserMax, { n: LIMITS.supportAdviserMax }));
    const image = { filename: 'a.png', body: PNG };
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '看图', adviser: '客服', images: [image, image, image, image] }), CODE.invalid, fmt(M.supportImagesTooMany, { n: 3 }));
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '看图', adviser: '客服', images: [image, { filename: 'run.png', body: Buffer.from('#!/bin/sh') }] }), CODE.invalid, M.supportImageFormat);
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '看图', adviser: '客服', images: [{ filename: 'big.png', body: Buffer.concat([PNG, Buffer.alloc(LIMITS.uploadMaxBytes)]) }] }), CODE.invalid, M.supportImageTooLarge);
    await operatorRefused(t(), () => replyAsOperator(ctx, 'T20260101000000', { content: '好的', adviser: '客服', images: [image] }), CODE.notFound, M.supportNotFound);
    await closeTicket(ctx, number);
    await operatorRefused(t(), () => replyAsOperator(ctx, number, { content: '好的', adviser: '客服', images: [image] }), CODE.invalid, M.supportClosedNoReply);
    await operatorRefused(t(), () => closeTicket(ctx, number), CODE.invalid, M.supportAlreadyClosed);
    await operatorRefused(t(), () => closeTicket(ctx, 'T20260101000000'), CODE.notFound, M.supportNotFound);
  });

  it('closes a ticket: no more replies from either side; the tenant may still rate it', async () => {
    const number = await raised(t(), a.token);
    await closeTicket(t().ctx, number);
    expect((await ticketRow(t(), number)).status).toBe(SUPPORT_STATUS.closed);
    expect(await t().call(replySupportTicket, { token: a.token, body: { ticket_number: number, content: '还在吗' } })).toMatchObject({ code: CODE.invalid, msg: M.supportClosedNoReply });
    expect((await t().call(appraiseSupportTicket, { token: a.token, body: { ticket_number: number, grade: 5 } })).code).toBe(CODE.ok);
    // An appraised ticket is closed for the adviser too.
    await expect(replyAsOperator(t().ctx, number, { content: '好的', adviser: '客服' })).rejects.toMatchObject({ message: M.supportClosedNoReply });
  });
});

describeEachDatabase('support tickets: the operator’s list of open tickets', (t) => {
  it('lists tickets not closed across tenants, waiting ones first, longest waiting first, paged', async () => {
    const a = await newAccount(t());
    const b = await newAccount(t());
    const first = await raised(t(), a.token, { title: '最早的问题' });
    const answered = await raised(t(), b.token, { title: '已回复的问题' });
    const closed = await raised(t(), a.token, { title: '已关闭的问题' });
    const latest = await raised(t(), b.token, { title: '最新的问题' });
    await replyAsOperator(t().ctx, answered, { content: '已回复', adviser: '客服' });
    await closeTicket(t().ctx, closed);
    const all = await listOpenTickets(t().ctx, { limit: 100 });
    expect(all.count).toBe(3);
    expect(all.rows.map((r) => r.ticket_number)).toEqual([first, latest, answered]);
    expect(all.rows[0]).toEqual({
      ticket_number: first,
      tenant_id: a.account.id,
      tenant: a.username,
      ticket_title: '最早的问题',
      ticketType: 2,
      ticket_status: SUPPORT_STATUS.pending,
      raised_by: '测试用户',
      create_time: expect.any(Number),
      update_time: expect.any(Number),
      entries: 0,
      last_reply_type: null,
      last_reply_time: null,
    });
    expect(all.rows[2]).toMatchObject({ ticket_status: SUPPORT_STATUS.replied, entries: 1, last_reply_type: 'service', last_reply_time: expect.any(Number) });
    const page2 = await listOpenTickets(t().ctx, { page: 2, limit: 2 });
    expect({ count: page2.count, numbers: page2.rows.map((r) => r.ticket_number) }).toEqual({ count: 3, numbers: [answered] });
    expect((await listOpenTickets(t().ctx, { page: 0, limit: 1_000_000 })).rows).toHaveLength(3);
  });
});
