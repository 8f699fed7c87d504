import {
  accountInfo,
  CODE,
  deleteMessages,
  fmt,
  LIMITS,
  listMessages,
  M,
  markMessagesRead,
  messageInfo,
} from '@hublink/contract';
import { beforeEach, expect, it } from 'vitest';
import { describeEachDatabase, newAccount, newRamAccount, signIn, type TestApp } from '../../../test/helpers';
import { formatTime } from '../../core/time';
import { send } from './service';

interface Tenant {
  id: number;
  token: string;
}

describeEachDatabase('message centre: /message/lists, /message/info, /message/update_message, /message/delete_message', (t) => {
  let a: Tenant;
  let b: Tenant;
  let ramToken = '';
  /** A's messages, oldest first. */
  let aIds: number[] = [];
  let bIds: number[] = [];

  const unreadOf = async (tenantId: number) =>
    (await t().db.selectFrom('message').select('id').where('tenant_id', '=', tenantId).where('status', '=', 0).orderBy('id').execute()).map((r) => r.id);
  const idsOf = async (tenantId: number) =>
    (await t().db.selectFrom('message').select('id').where('tenant_id', '=', tenantId).orderBy('id').execute()).map((r) => r.id);
  const messageCount = async (token: string) => (await t().call(accountInfo, { token })).data!.message_count;

  /** Sends `n` messages a second apart (so their order is certain), oldest first. */
  async function fill(app: TestApp, tenantId: number, n: number, prefix: string) {
    const ids: number[] = [];
    for (let i = 0; i < n; i++) ids.push(await send(app.ctx, tenantId, { title: `${prefix}${i}`, content: `<p>${prefix}内容${i}</p>`, type: i % 2 ? 'service' : 'system' }));
    const base = Date.now() - n * 1000;
    for (const [i, id] of ids.entries()) await app.db.updateTable('message').set({ create_time: base + i * 1000 }).where('id', '=', id).execute();
    return ids;
  }

  // Each test starts from a fresh pair of tenants: A with 12 unread messages, B with 3.
  beforeEach(async () => {
    const ra = await newAccount(t());
    const rb = await newAccount(t());
    a = { id: ra.account.id, token: ra.token };
    b = { id: rb.account.id, token: rb.token };
    const ram = await newRamAccount(t(), a.id);
    ramToken = (await signIn(t(), ram.login, ram.password, { ram: true })).data!.access_token;
    aIds = await fill(t(), a.id, 12, 'A消息');
    bIds = await fill(t(), b.id, 3, 'B消息');
  });

  it('lists 10 a page, newest first, with the total; each tenant sees only its own', async () => {
    const p1 = await t().call(listMessages, { token: a.token, query: { page: 1 } });
    expect(p1).toMatchObject({ code: 200, count: 12 });
    expect(p1.data!.map((m) => m.message_id)).toEqual([...aIds].reverse().slice(0, LIMITS.pageSize));
    const row = await t().db.selectFrom('message').selectAll().where('id', '=', aIds[11]!).executeTakeFirstOrThrow();
    expect(p1.data![0]).toEqual({
      message_id: aIds[11],
      title: 'A消息11',
      create_time: formatTime(row.create_time, t().ctx.config.timezone),
      type: 'service',
      status: 0,
    });
    expect(p1.data![0]).not.toHaveProperty('content');
    const p2 = await t().call(listMessages, { token: a.token, query: { page: 2 } });
    expect(p2.data!.map((m) => m.message_id)).toEqual([aIds[1], aIds[0]]);
    const pb = await t().call(listMessages, { token: b.token, query: { page: 1 } });
    expect(pb).toMatchObject({ code: 200, count: 3 });
    expect(pb.data!.map((m) => m.message_id)).toEqual([...bIds].reverse());
    const empty = await t().call(listMessages, { token: a.token, query: { page: 9 } });
    expect(empty).toMatchObject({ code: 200, count: 12, data: [] });
  });

  it('refuses a bad page or limit', async () => {
    expect(await t().call(listMessages, { token: a.token, query: { page: 0 } })).toMatchObject({ code: CODE.invalid, msg: M.pageInvalid });
    expect(await t().call(listMessages, { token: a.token, query: { limit: 101 } })).toMatchObject({ code: CODE.invalid, msg: M.limitInvalid });
  });

  it('opens a message with its content and marks it read; the unread count drops', async () => {
    expect(await messageCount(a.token)).toBe(12);
    const res = await t().call(messageInfo, { token: a.token, query: { message_id: aIds[3]! } });
    expect(res).toMatchObject({ code: 200, data: { message_id: aIds[3], title: 'A消息3', content: '<p>A消息内容3</p>', status: 1, type: 'service' } });
    expect(await unreadOf(a.id)).not.toContain(aIds[3]);
    expect(await messageCount(a.token)).toBe(11);
    // Opening it again changes nothing more.
    expect((await t().call(messageInfo, { token: a.token, query: { message_id: aIds[3]! } })).code).toBe(200);
    expect(await messageCount(a.token)).toBe(11);
  });

  it("answers 204 for another tenant's or an unknown message and leaves it unread", async () => {
    const before = await t().snapshot();
    expect(await t().call(messageInfo, { token: b.token, query: { message_id: aIds[0]! } })).toMatchObject({ code: CODE.notFound, msg: M.messageNotFound, status: 200 });
    expect(await t().call(messageInfo, { token: a.token, query: { message_id: 99999999 } })).toMatchObject({ code: CODE.notFound, msg: M.messageNotFound });
    expect(await t().snapshot()).toEqual(before);
    for (const message_id of ['abc', 0, -1, 1.5, LIMITS.maxId + 1]) {
      expect(await t().call(messageInfo, { token: a.token, query: { message_id } }), String(message_id)).toMatchObject({ code: CODE.invalid, msg: M.messageNotFound });
    }
    expect(await t().call(messageInfo, { token: a.token })).toMatchObject({ code: CODE.invalid });
  });

  it('marks the selected messages read', async () => {
    const res = await t().call(markMessagesRead, { token: a.token, body: { message_id: [aIds[0], aIds[5], aIds[5]] } });
    expect(res).toMatchObject({ code: 200, msg: M.updated });
    expect(await unreadOf(a.id)).toEqual(aIds.filter((id) => id !== aIds[0] && id !== aIds[5]));
    expect(await messageCount(a.token)).toBe(10);
    // Marking a read message again is fine.
    expect((await t().call(markMessagesRead, { token: a.token, body: { message_id: [aIds[0]] } })).code).toBe(200);
  });

  it("marks all of the tenant's messages read with type 'all', and no other tenant's", async () => {
    const res = await t().call(markMessagesRead, { token: a.token, body: { type: 'all' } });
    expect(res).toMatchObject({ code: 200, msg: M.updated });
    expect(await unreadOf(a.id)).toEqual([]);
    expect(await messageCount(a.token)).toBe(0);
    expect(await unreadOf(b.id)).toEqual(bIds);
    // 'all' wins over a list, even one naming another tenant's message.
    expect((await t().call(markMessagesRead, { token: b.token, body: { type: 'all', message_id: [aIds[0]] } })).code).toBe(200);
    expect(await unreadOf(b.id)).toEqual([]);
  });

  it('deletes the selected messages, and all of them with type all', async () => {
    const res = await t().call(deleteMessages, { token: a.token, body: { message_id: [aIds[1], aIds[2]] } });
    expect(res).toMatchObject({ code: 200, msg: M.deleted });
    expect(await idsOf(a.id)).toEqual(aIds.filter((id) => id !== aIds[1] && id !== aIds[2]));
    expect((await t().call(listMessages, { token: a.token, query: { page: 1 } })).count).toBe(10);
    expect(await t().call(deleteMessages, { token: a.token, body: { type: 'all' } })).toMatchObject({ code: 200, msg: M.deleted });
    expect(await idsOf(a.id)).toEqual([]);
    expect(await idsOf(b.id)).toEqual(bIds);
    expect(await messageCount(a.token)).toBe(0);
  });

  it('refuses an empty or malformed selection with 请选择消息标题, changing nothing', async () => {
    const before = await t().snapshot();
    for (const endpoint of [markMessagesRead, deleteMessages]) {
      for (const body of [{}, { message_id: [] }, { message_id: null }, { message_id: 'x' }, { message_id: ['a'] }, { message_id: [0] }, { message_id: [LIMITS.maxId + 1] }, { type: 'some' }, { type: '' }]) {
        expect(await t().call(endpoint, { token: a.token, body }), `${endpoint.path} ${JSON.stringify(body)}`).toMatchObject({ code: CODE.invalid, msg: M.selectMessage });
      }
      const tooMany = Array.from({ length: LIMITS.maxPageLimit + 1 }, (_, i) => i + 1);
      expect(await t().call(endpoint, { token: a.token, body: { message_id: tooMany } })).toMatchObject({
        code: CODE.invalid,
        msg: fmt(M.messageSelectionTooLarge, { n: LIMITS.maxPageLimit }),
      });
    }
    expect(await t().snapshot()).toEqual(before);
  });

  it("refuses a selection naming another tenant's or an unknown message as a whole (204), touching nothing", async () => {
    const before = await t().snapshot();
    for (const endpoint of [markMessagesRead, deleteMessages]) {
      expect(await t().call(endpoint, { token: b.token, body: { message_id: [aIds[0]] } })).toMatchObject({ code: CODE.notFound, msg: M.messageNotFound });
      expect(await t().call(endpoint, { token: b.token, body: { message_id: [bIds[0], aIds[0]] } })).toMatchObject({ code: CODE.notFound });
      expect(await t().call(endpoint, { token: a.token, body: { message_id: [aIds[0], 99999999] } })).toMatchObject({ code: CODE.notFound });
    }
    expect(await t().snapshot()).toEqual(before);
  });

  it("lets a sub-account read and mark its tenant's messages, but not delete them", async () => {
    const list = await t().call(listMessages, { token: ramToken, query: { page: 1 } });
    expect(list).toMatchObject({ code: 200, count: 12 });
    expect(await messageCount(ramToken)).toBe(12);
    expect((await t().call(messageInfo, { token: ramToken, query: { message_id: aIds[0]! } })).code).toBe(200);
    expect(await messageCount(a.token)).toBe(11);
    expect((await t().call(markMessagesRead, { token: ramToken, body: { message_id: [aIds[1]] } })).code).toBe(200);
    expect(await messageCount(ramToken)).toBe(10);
    expect(await t().call(messageInfo, { token: ramToken, query: { message_id: bIds[0]! } })).toMatchObject({ code: CODE.notFound });

    const before = await t().snapshot();
    expect(await t().call(deleteMessages, { token: ramToken, body: { message_id: [aIds[0]] } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    expect(await t().call(deleteMessages, { token: ramToken, body: { type: 'all' } })).toMatchObject({ code: CODE.forbidden, msg: M.deniedMainOnly });
    expect(await t().snapshot()).toEqual(before);
  });

  it('needs a token for every call', async () => {
    const before = await t().snapshot();
    expect(await t().call(listMessages, { query: { page: 1 } })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
    expect(await t().call(messageInfo, { query: { message_id: aIds[0]! } })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
    expect(await t().call(markMessagesRead, { body: { type: 'all' } })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
    expect(await t().call(deleteMessages, { body: { type: 'all' } })).toMatchObject({ code: CODE.tokenInvalid, status: 401 });
    expect(await t().snapshot()).toEqual(before);
  });
});

describeEachDatabase('sending a message (service layer)', (t) => {
  let tenantId = 0;
  let token = '';

  beforeEach(async () => {
    const acc = await newAccount(t());
    tenantId = acc.account.id;
    token = acc.token;
  });

  const contentOf = async (id: number) => (await t().call(messageInfo, { token, query: { message_id: id } })).data!.content;

  it('stores the HTML without scripts, event handlers or javascript: URLs', async () => {
    const id = await send(t().ctx, tenantId, {
      title: '  服务到期提醒  ',
      type: 'service',
      content: [
        '<p onclick="steal()" style="color:red;position:fixed">您的服务<script>alert(1)</script>即将到期</p>',
        '<a href="javascript:alert(1)">坏链接</a>',
        '<a href="https://example.com/renew">续费</a>',
        '<img src="https://example.com/a.png" onerror="alert(1)">',
        '<iframe src="https://evil.example"></iframe>',
        '<svg onload="alert(1)"><a href="https://x">x</a></svg>',
        '<style>body{display:none}</style>',
        '<form action="https://evil.example"><input name="p">表单</form>',
      ].join(''),
    });
    const content = await contentOf(id);
    expect(content).toBe(
      '<p style="color:red">您的服务即将到期</p>' +
        '<a>坏链接</a>' +
        '<a href="https://example.com/renew" target="_blank" rel="noopener noreferrer">续费</a>' +
        '<img src="https://example.com/a.png" />' +
        '表单',
    );
    const stored = await t().db.selectFrom('message').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    // Stored sanitised (and read, since contentOf opened it); the title is trimmed.
    expect(stored).toMatchObject({ tenant_id: tenantId, title: '服务到期提醒', type: 'service', status: 1, content });
    for (const bad of ['<script', 'onclick', 'onerror', 'onload', 'javascript:', 'iframe', 'position']) expect(content).not.toContain(bad);
  });

  it('keeps the allowed formatting: tables, lists, images, safe inline styles', async () => {
    const html =
      '<h3>标题</h3><ul><li><strong>一</strong></li></ul><table><tbody><tr><td colspan="2" style="text-align:center">格</td></tr></tbody></table>' +
      '<img src="data:image/png;base64,iVBORw0KGgo=" alt="图" />';
    const id = await send(t().ctx, tenantId, { title: '格式', content: html });
    expect(await contentOf(id)).toBe(html);
  });

  it('refuses a message without title or content, with an unknown type, or for an unknown tenant', async () => {
    const before = await t().snapshot();
    const cases: [Parameters<typeof send>[2], string][] = [
      [{ title: ' ', content: '<p>x</p>' }, M.messageTitleRequired],
      [{ title: 'x'.repeat(LIMITS.messageTitleMax + 1), content: '<p>x</p>' }, fmt(M.messageTitleTooLong, { n: LIMITS.messageTitleMax })],
      [{ title: '标题', content: '' }, M.messageContentRequired],
      [{ title: '标题', content: '<script>alert(1)</script>' }, M.messageContentRequired],
      [{ title: '标题', content: '<p>x</p>', type: 'spam' as never }, M.messageTypeInvalid],
    ];
    for (const [input, msg] of cases) {
      await expect(send(t().ctx, tenantId, input), JSON.stringify(input).slice(0, 60)).rejects.toMatchObject({ code: CODE.invalid, message: msg });
    }
    await expect(send(t().ctx, 99999999, { title: '标题', content: '<p>x</p>' })).rejects.toMatchObject({ code: CODE.notFound, message: M.accountNotFound });
    expect(await t().snapshot()).toEqual(before);
  });

  it("defaults to a system message and counts towards the tenant's unread count", async () => {
    const id = await send(t().ctx, tenantId, { title: '欢迎', content: '<p>欢迎使用</p>' });
    const list = await t().call(listMessages, { token, query: { page: 1 } });
    expect(list.data).toEqual([expect.objectContaining({ message_id: id, type: 'system', status: 0 })]);
    expect((await t().call(accountInfo, { token })).data!.message_count).toBe(1);
  });
});
