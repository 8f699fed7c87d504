import {
  appraiseSupportTicket,
  CODE,
  createSupportTicket,
  deleteSupportTicket,
  fmt,
  LIMITS,
  listSupportTickets,
  M,
  replySupportTicket,
  SUPPORT_STATUS,
  supportImageSrc,
  supportTicketInfo,
} from '@hublink/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { randomDayNumber } from '../../core/dayNumber';
import { fileRow, raised, refused, send, ticketBody, ticketRow, uploaded } from './fixtures';
import { replyAsOperator } from './operator';

type Main = Awaited<ReturnType<typeof newAccount>>;

/** A sub-account of the tenant (no rights at all: tickets need none), signed in. */
async function subAccount(t: TestApp, tenantId: number, nickname: string) {
  const ram = await newRamAccount(t, tenantId, { nickname, auth: { 'easylink.router': { create: 0, edit: 0, delete: 0 }, 'easylink.network': { create: 0, edit: 0, delete: 0, network: [] }, monitor: { view: 1, create: 0, edit: 0, delete: 0 } } });
  const res = await signIn(t, ram.login, ram.password, { ram: true });
  return { ...ram, token: res.data!.access_token };
}

describe('support ticket numbers', () => {
  it('are T, the UTC day and 6 random digits', () => {
    expect(randomDayNumber('T', 6, Date.UTC(2026, 0, 5, 23))).toMatch(/^T20260105\d{6}$/);
  });
});

describeEachDatabase('support tickets: raising and reading', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  it('raises a pending ticket with its images and answers it in the list and in full', async () => {
    const images = [await uploaded(t(), main.token, 'a.png'), await uploaded(t(), main.token, 'b.PNG')];
    const number = await raised(t(), main.token, { title: '  网络中断  ', type: 4, file_ids: images });
    expect(number).toMatch(/^T\d{8}\d{6}$/);
    const list = await t().call(listSupportTickets, { token: main.token, query: { page: 1 } });
    expect(list.data![0]).toEqual({ ticket_number: number, ticket_title: '网络中断', ticket_status: SUPPORT_STATUS.pending, ticketType: 4, create_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/), deletable: true });
    const info = await t().call(supportTicketInfo, { token: main.token, query: { ticket_number: number } });
    expect(info.data).toEqual({
      ...list.data![0],
      content: ticketBody().content,
      images: images.map((file_id) => ({ file_id, src: supportImageSrc(file_id) })),
      raised_by: '测试用户',
      dialogue: [],
      appraise: null,
    });
    for (const id of images) expect((await fileRow(t(), id))!.state).toBe(1);
  });

  it('refuses what the create form refuses, with the spec’s messages, changing nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: '' }, M.supportTitleRequired],
      [{ title: '   ' }, M.supportTitleRequired],
      [{ title: undefined }, M.supportTitleRequired],
      [{ title: '网' }, fmt(M.supportTitleMin, { n: 2 })],
      [{ title: '网'.repeat(33) }, fmt(M.supportTitleMax, { n: 32 })],
      [{ content: '' }, M.supportContentRequired],
      [{ content: '太短了' }, fmt(M.supportContentMin, { n: 10 })],
      [{ content: 'x'.repeat(LIMITS.supportContentMax + 1) }, fmt(M.supportContentMax, { n: LIMITS.supportContentMax })],
      [{ type: undefined }, M.supportTypeRequired],
      [{ type: 5 }, M.supportTypeRequired],
      [{ type: 'platform' }, M.supportTypeRequired],
      [{ file_ids: 'abc' }, M.supportImageInvalid],
      [{ file_ids: ['not-an-id'] }, M.supportImageInvalid],
      [{ file_ids: ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32), 'd'.repeat(32)] }, fmt(M.supportImagesTooMany, { n: 3 })],
      [{ file_ids: ['a'.repeat(32), 'a'.repeat(32)] }, M.supportImageInvalid],
      // Well-formed ids that name no upload of this tenant.
      [{ file_ids: ['0'.repeat(32)] }, M.supportImageInvalid],
    ];
    for (const [over, msg] of cases) await refused(t(), main.token, createSupportTicket, ticketBody(over), CODE.invalid, msg);
  });

  it('keeps line breaks of the overview and takes exactly 2 and 32 characters of title', async () => {
    const number = await raised(t(), main.token, { title: '网络', content: '第一行说明问题。\n第二行给出细节。' });
    expect((await ticketRow(t(), number)).content).toBe('第一行说明问题。\n第二行给出细节。');
    await raised(t(), main.token, { title: '网'.repeat(32) });
  });

  it('refuses an upload used once already, one older than a day, and the whole ticket with it', async () => {
    const used = await uploaded(t(), main.token);
    await raised(t(), main.token, { file_ids: [used] });
    const fresh = await uploaded(t(), main.token);
    await refused(t(), main.token, createSupportTicket, ticketBody({ file_ids: [fresh, used] }), CODE.invalid, M.supportImageInvalid);
    expect((await fileRow(t(), fresh))!.state).toBe(0);
    await t().db.updateTable('support_file').set({ create_time: Date.now() - LIMITS.supportUploadTtlHours * 3600_000 - 1 }).where('file_id', '=', fresh).execute();
    await refused(t(), main.token, createSupportTicket, ticketBody({ file_ids: [fresh] }), CODE.invalid, M.supportImageInvalid);
  });

  it('lists newest first, 10 a page, searching the number or the title', async () => {
    const tenant = await newAccount(t());
    const numbers: string[] = [];
    for (let i = 1; i <= 12; i++) numbers.push(await raised(t(), tenant.token, { title: i === 7 ? '打印机无法访问' : `问题${i}` }));
    const first = await t().call(listSupportTickets, { token: tenant.token, query: { page: 1 } });
    expect(first.count).toBe(12);
    expect(first.data!.map((r) => r.ticket_number)).toEqual(numbers.toReversed().slice(0, 10));
    const second = await t().call(listSupportTickets, { token: tenant.token, query: { page: 2 } });
    expect(second.data!.map((r) => r.ticket_number)).toEqual(numbers.toReversed().slice(10));
    const byTitle = await t().call(listSupportTickets, { token: tenant.token, query: { page: 1, search: '打印机' } });
    expect(byTitle.data!.map((r) => r.ticket_number)).toEqual([numbers[6]]);
    const byNumber = await t().call(listSupportTickets, { token: tenant.token, query: { page: 1, search: numbers[3]!.toLowerCase() } });
    expect(byNumber.data!.map((r) => r.ticket_number)).toEqual([numbers[3]]);
    expect((await t().call(listSupportTickets, { token: tenant.token, query: { page: 3 } })).data).toEqual([]);
  });

  it('answers 204 for an unknown ticket', async () => {
    await refused(t(), main.token, supportTicketInfo, { ticket_number: 'T20260101000000' }, CODE.notFound, M.supportNotFound);
  });
});

describeEachDatabase('support tickets: the dialogue and the appraisal', (t) => {
  let main: Main;

  beforeAll(async () => {
    main = await newAccount(t());
  });

  it('writes the tenant’s replies with images in order; a reply makes the ticket pending again', async () => {
    const number = await raised(t(), main.token);
    await t().db.updateTable('support_ticket').set({ status: SUPPORT_STATUS.replied }).where('ticket_number', '=', number).execute();
    const image = await uploaded(t(), main.token, 'c.gif', Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1'));
    const res = await t().call(replySupportTicket, { token: main.token, body: { ticket_number: number, content: '补充：\n重启后仍然不行', file_ids: [image] } });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.replied });
    expect((await t().call(replySupportTicket, { token: main.token, body: { ticket_number: number, content: '再补充一句' } })).code).toBe(CODE.ok);
    const info = (await t().call(supportTicketInfo, { token: main.token, query: { ticket_number: number } })).data!;
    expect(info.ticket_status).toBe(SUPPORT_STATUS.pending);
    expect(info.dialogue).toEqual([
      { reply_type: 'tenant', reply_name: '测试用户', reply_time: expect.any(String), dialogue_content: '补充：\n重启后仍然不行', images: [{ file_id: image, src: supportImageSrc(image) }] },
      { reply_type: 'tenant', reply_name: '测试用户', reply_time: expect.any(String), dialogue_content: '再补充一句', images: [] },
    ]);
    expect(info.images).toEqual([]);
  });

  it('refuses an empty reply, too many images, an image of another ticket, a full dialogue, changing nothing', async () => {
    const number = await raised(t(), main.token);
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '' }, CODE.invalid, M.supportReplyRequired);
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: ' \n ' }, CODE.invalid, M.supportReplyRequired);
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: 'x'.repeat(LIMITS.supportContentMax + 1) }, CODE.invalid, fmt(M.supportReplyMax, { n: LIMITS.supportContentMax }));
    const four = [1, 2, 3, 4].map((i) => String(i).repeat(32));
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '看图', file_ids: four }, CODE.invalid, fmt(M.supportImagesTooMany, { n: 3 }));
    const used = await uploaded(t(), main.token);
    await raised(t(), main.token, { file_ids: [used] });
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '看图', file_ids: [used] }, CODE.invalid, M.supportImageInvalid);
    await refused(t(), main.token, replySupportTicket, { ticket_number: 'T20260101000000', content: '看图' }, CODE.notFound, M.supportNotFound);
    const row = await ticketRow(t(), number);
    const now = Date.now();
    await t()
      .db.insertInto('support_dialogue')
      .values(Array.from({ length: LIMITS.supportDialogueMax }, () => ({ ticket_id: row.id, tenant_id: main.account.id, reply_type: 'tenant' as const, ram_id: null, reply_name: 'x', content: 'x', create_time: now })))
      .execute();
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '还有一句' }, CODE.invalid, M.supportDialogueFull);
  });

  it('rates once (评分不能为空 without a grade), after an adviser answered; the ticket closes and takes no more replies', async () => {
    const number = await raised(t(), main.token);
    // Nothing to rate before an adviser answers (our rule: the spec offers rating on the detail page).
    await refused(t(), main.token, appraiseSupportTicket, { ticket_number: number, grade: 5, content: '还没人回复' }, CODE.invalid, '客服回复后才能评价');
    await replyAsOperator(t().ctx, number, { content: '您好，已处理。', adviser: '客服小刘' });
    for (const grade of [undefined, null, '', 0, 6, 2.5, 'x']) {
      await refused(t(), main.token, appraiseSupportTicket, { ticket_number: number, grade, content: '很好' }, CODE.invalid, M.supportGradeRequired);
    }
    await refused(t(), main.token, appraiseSupportTicket, { ticket_number: number, grade: 5, content: '好'.repeat(LIMITS.supportAppraiseMax + 1) }, CODE.invalid, fmt(M.supportAppraiseMax, { n: LIMITS.supportAppraiseMax }));
    await refused(t(), main.token, appraiseSupportTicket, { ticket_number: number, grade: 5, content: 5 }, CODE.invalid, M.validationFailed);
    const res = await t().call(appraiseSupportTicket, { token: main.token, body: { ticket_number: number, grade: 4, content: '响应很快' } });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.commented });
    const info = (await t().call(supportTicketInfo, { token: main.token, query: { ticket_number: number } })).data!;
    expect(info.ticket_status).toBe(SUPPORT_STATUS.closed);
    expect(info.appraise).toEqual({ grade: 4, content: '响应很快', create_time: expect.any(String) });
    await refused(t(), main.token, appraiseSupportTicket, { ticket_number: number, grade: 1 }, CODE.invalid, M.supportAlreadyAppraised);
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '还有问题' }, CODE.invalid, M.supportClosedNoReply);
  });

  it('rates without a comment, and a ticket the operator closed', async () => {
    const number = await raised(t(), main.token);
    await t().db.updateTable('support_ticket').set({ status: SUPPORT_STATUS.closed }).where('ticket_number', '=', number).execute();
    await refused(t(), main.token, replySupportTicket, { ticket_number: number, content: '还有问题' }, CODE.invalid, M.supportClosedNoReply);
    expect((await t().call(appraiseSupportTicket, { token: main.token, body: { ticket_number: number, grade: '3' } })).code).toBe(CODE.ok);
    expect((await ticketRow(t(), number)).appraise_content).toBe('');
  });
});

describeEachDatabase('support tickets: who may do what', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('shows the tenant’s tickets to its sub-accounts, named by who raised them, who wrote each entry', async () => {
    const clerk = await subAccount(t(), a.account.id, '前台小王');
    const mine = await raised(t(), clerk.token, { title: '子账号的工单' });
    const theirs = await raised(t(), a.token, { title: '主账号的工单' });
    const list = await t().call(listSupportTickets, { token: clerk.token, query: { page: 1, search: '的工单' } });
    expect(list.data!.map((r) => [r.ticket_number, r.deletable])).toEqual([
      [theirs, false],
      [mine, true],
    ]);
    expect((await t().call(listSupportTickets, { token: a.token, query: { page: 1, search: '的工单' } })).data!.map((r) => r.deletable)).toEqual([true, true]);
    expect((await t().call(supportTicketInfo, { token: a.token, query: { ticket_number: mine } })).data!.raised_by).toBe('前台小王');
    await t().call(replySupportTicket, { token: clerk.token, body: { ticket_number: theirs, content: '我来补充' } });
    const entry = (await t().call(supportTicketInfo, { token: a.token, query: { ticket_number: theirs } })).data!.dialogue[0]!;
    expect(entry).toMatchObject({ reply_type: 'tenant', reply_name: '前台小王' });
  });

  it('lets the main account delete any ticket and a sub-account only those it raised', async () => {
    const clerk = await subAccount(t(), a.account.id, '前台小李');
    const other = await subAccount(t(), a.account.id, '前台小张');
    const clerks = await raised(t(), clerk.token);
    const mains = await raised(t(), a.token);
    await refused(t(), clerk.token, deleteSupportTicket, { ticket_number: mains }, CODE.forbidden, M.supportDeleteForbidden);
    await refused(t(), other.token, deleteSupportTicket, { ticket_number: clerks }, CODE.forbidden, M.supportDeleteForbidden);
    const res = await t().call(deleteSupportTicket, { token: clerk.token, body: { ticket_number: clerks } });
    expect({ code: res.code, msg: res.msg }).toEqual({ code: CODE.ok, msg: M.deleted });
    expect((await t().call(deleteSupportTicket, { token: a.token, body: { ticket_number: mains } })).code).toBe(CODE.ok);
    await refused(t(), a.token, deleteSupportTicket, { ticket_number: mains }, CODE.notFound, M.supportNotFound);
    await refused(t(), a.token, supportTicketInfo, { ticket_number: mains }, CODE.notFound, M.supportNotFound);
  });

  it('keeps another tenant out of a ticket and its uploads: nothing read, nothing changed', async () => {
    const image = await uploaded(t(), a.token);
    const number = await raised(t(), a.token, { title: '机密工单' });
    const aImage = await uploaded(t(), a.token);
    for (const [e, input] of [
      [supportTicketInfo, { ticket_number: number }],
      [replySupportTicket, { ticket_number: number, content: '越权回复' }],
      [appraiseSupportTicket, { ticket_number: number, grade: 1 }],
      [deleteSupportTicket, { ticket_number: number }],
    ] as const) {
      await refused(t(), b.token, e, input, CODE.notFound, M.supportNotFound);
    }
    expect((await send(t(), listSupportTickets, b.token, { page: 1, search: '机密' })).data).toEqual([]);
    // B cannot take A's pending upload into its own ticket or reply.
    await refused(t(), b.token, createSupportTicket, ticketBody({ file_ids: [aImage] }), CODE.invalid, M.supportImageInvalid);
    const bTicket = await raised(t(), b.token);
    await refused(t(), b.token, replySupportTicket, { ticket_number: bTicket, content: '看图', file_ids: [image] }, CODE.invalid, M.supportImageInvalid);
    expect((await fileRow(t(), aImage))!.state).toBe(0);
  });
});
