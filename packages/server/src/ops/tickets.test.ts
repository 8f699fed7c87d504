import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CODE, createSupportTicket, fmt, LIMITS, listMessages, M, SUPPORT_STATUS, supportTicketInfo } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, type TestApp } from '../../test/helpers';
import { GIF_1PX, pngImage } from '../../test/images';
import { ops } from '../../test/ops';

type Main = Awaited<ReturnType<typeof newAccount>>;

const PNG = pngImage(8, 8, [[82, 196, 26]]);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hublink-ops-tickets-'));
/** A file of the test's folder with these bytes; answers its path. */
const file = (name: string, body: Buffer | string) => {
  fs.writeFileSync(path.join(dir, name), body);
  return path.join(dir, name);
};

async function raise(t: TestApp, token: string, title = '无法连接总部网络') {
  const res = await t.call(createSupportTicket, { token, body: { title, content: '分支机构的路由器从昨天开始无法连接到总部网络。', type: 2 } });
  expect(res.code).toBe(CODE.ok);
  return res.data!.ticket_number;
}

const info = async (t: TestApp, token: string, number: string) => (await t.call(supportTicketInfo, { token, query: { ticket_number: number } })).data!;

/** Expects `hublink ops …` to answer `code` with `message` in its error output, changing nothing. */
async function refused(t: TestApp, argv: string[], code: 1 | 2, message: string) {
  const before = await t.snapshot();
  const run = await ops(t, argv);
  expect({ argv, code: run.code, out: run.out }).toEqual({ argv, code, out: '' });
  expect(run.err).toContain(message);
  expect(await t.snapshot()).toEqual(before);
}

describeEachDatabase('hublink ops tickets', (t) => {
  let a: Main;
  let b: Main;

  beforeAll(async () => {
    a = await newAccount(t());
    b = await newAccount(t());
  });

  it('lists open tickets of every tenant, waiting ones first, with their last reply', async () => {
    const first = await raise(t(), a.token, '最早的问题');
    const answered = await raise(t(), b.token, '已回复的问题');
    const closed = await raise(t(), a.token, '已关闭的问题');
    expect((await ops(t(), ['tickets', 'reply', answered, '--content', '已处理'])).code).toBe(0);
    expect((await ops(t(), ['tickets', 'close', closed])).code).toBe(0);

    const run = await ops(t(), ['tickets', 'list', '--json']);
    expect(run.code).toBe(0);
    const rows = run.json<Record<string, string>[]>();
    const numbers = rows.map((r) => r.number);
    expect(numbers).not.toContain(closed);
    expect(numbers.indexOf(first)).toBeLessThan(numbers.indexOf(answered));
    expect(rows.find((r) => r.number === first)).toEqual({ number: first, tenant: a.username, title: '最早的问题', type: M.supportTypeNetworking, status: 'pending', created: expect.stringMatching(/^\d{4}-\d{2}-\d{2} /), last_reply: '' });
    expect(rows.find((r) => r.number === answered)).toMatchObject({ tenant: b.username, status: 'replied', last_reply: expect.stringMatching(/^\d{4}-\d{2}-\d{2} [\d:]+ \(service\)$/) });

    const table = await ops(t(), ['tickets', 'list', '--limit', '1']);
    expect(table.out.split('\n')[0]).toMatch(/^number\s+tenant\s+title\s+type\s+status\s+created\s+last_reply$/);
    expect(table.out.trim().split('\n')).toHaveLength(2);
    await refused(t(), ['tickets', 'list', '--limit', '0'], 2, '--limit: limit must be at least 1');
    await refused(t(), ['tickets', 'list', '--limit', '1001'], 2, '--limit: limit must be at most 1000');
  });

  it('answers with images read from disk: the tenant sees them and is told in the message centre', async () => {
    const tenant = await newAccount(t());
    const number = await raise(t(), tenant.token);
    const run = await ops(t(), ['tickets', 'reply', number, '--content', '请检查WAN口。\n谢谢', '--adviser', '客服小刘', '--image', file('wan.png', PNG), '--image', file('step.gif', GIF_1PX)]);
    expect({ code: run.code, err: run.err }).toEqual({ code: 0, err: '' });
    expect(run.out).toContain(`ticket ${number} answered by 客服小刘 with 2 image(s)`);

    const ticket = await info(t(), tenant.token, number);
    expect(ticket.ticket_status).toBe(SUPPORT_STATUS.replied);
    expect(ticket.dialogue).toEqual([{ reply_type: 'service', reply_name: '客服小刘', reply_time: expect.any(String), dialogue_content: '请检查WAN口。\n谢谢', images: [expect.any(Object), expect.any(Object)] }]);
    const served = await t().app.inject({ method: 'GET', url: ticket.dialogue[0]!.images[0]!.src, headers: { authorization: `Bearer ${tenant.token}` } });
    expect(served.rawPayload.equals(PNG)).toBe(true);
    // The notice is there when the command answers: the CLI delivers what it raised before it exits.
    const notices = await t().call(listMessages, { token: tenant.token, query: { page: 1 } });
    expect(notices.data!.map((m) => m.title)).toEqual([fmt(M.supportNoticeTitle, { number })]);

    // The default adviser is the service's tag.
    expect((await ops(t(), ['tickets', 'reply', number, '--content', '再补充一点'])).code).toBe(0);
    expect((await info(t(), tenant.token, number)).dialogue[1]).toMatchObject({ reply_name: M.supportServiceTag, images: [] });
  });

  it('refuses a bad answer (exit 2) and what the service refuses (exit 1), changing nothing', async () => {
    const number = await raise(t(), a.token);
    const png = file('ok.png', PNG);
    await refused(t(), ['tickets', 'reply', number], 2, `--content: ${M.supportReplyRequired}`);
    await refused(t(), ['tickets', 'reply', number, '--content', '  '], 2, `--content: ${M.supportReplyRequired}`);
    await refused(t(), ['tickets', 'reply', number, '--content', 'x'.repeat(LIMITS.supportContentMax + 1)], 2, fmt(M.supportReplyMax, { n: LIMITS.supportContentMax }));
    await refused(t(), ['tickets', 'reply', number, '--content', '好的', '--adviser', ' '], 2, `--adviser: ${M.supportAdviserRequired}`);
    await refused(t(), ['tickets', 'reply', number, '--content', '好的', '--image', path.join(dir, 'missing.png')], 2, `--image: cannot read ${path.join(dir, 'missing.png')}: no such file`);
    await refused(t(), ['tickets', 'reply', number, '--content', '好的', '--image', dir], 2, 'it is a folder');
    await refused(t(), ['tickets', 'reply', number, '--content', '好的', ...[1, 2, 3, 4].flatMap(() => ['--image', png])], 2, fmt(M.supportImagesTooMany, { n: LIMITS.supportImagesMax }));
    await refused(t(), ['tickets', 'reply', '--content', '好的'], 2, '<number>: a ticket number is required');

    await refused(t(), ['tickets', 'reply', number, '--content', '看图', '--image', file('run.png', '#!/bin/sh\n')], 1, M.supportImageFormat);
    await refused(t(), ['tickets', 'reply', number, '--content', '看图', '--image', file('big.png', Buffer.concat([PNG, Buffer.alloc(LIMITS.uploadMaxBytes)]))], 1, M.supportImageTooLarge);
    await refused(t(), ['tickets', 'reply', 'T20260101000000', '--content', '好的', '--image', png], 1, M.supportNotFound);
    expect((await ops(t(), ['tickets', 'close', number])).code).toBe(0);
    await refused(t(), ['tickets', 'reply', number, '--content', '好的', '--image', png], 1, M.supportClosedNoReply);
  });

  it('closes a ticket: the tenant sees it closed; closing again or an unknown ticket is refused', async () => {
    const number = await raise(t(), a.token);
    const run = await ops(t(), ['tickets', 'close', number]);
    expect({ code: run.code, out: run.out }).toEqual({ code: 0, out: `ticket ${number} closed\n` });
    expect((await info(t(), a.token, number)).ticket_status).toBe(SUPPORT_STATUS.closed);
    await refused(t(), ['tickets', 'close', number], 1, M.supportAlreadyClosed);
    await refused(t(), ['tickets', 'close', 'T20260101000000'], 1, M.supportNotFound);
    await refused(t(), ['tickets', 'close'], 2, '<number>: a ticket number is required');
  });
});
