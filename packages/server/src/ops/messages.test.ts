import { accountInfo, fmt, LIMITS, listMessages, M, messageInfo } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../test/helpers';
import { ops } from '../../test/ops';

describeEachDatabase('hublink ops messages', (t) => {
  const a = { id: 0, username: '', token: '' };
  const b = { id: 0, username: '', token: '' };
  const inbox = async (token: string) => (await t().call(listMessages, { token, query: { page: 1 } })).data!;
  const send = (tenant: string, ...args: string[]) => ops(t(), ['messages', 'send', tenant, ...args, '--json']);

  beforeAll(async () => {
    for (const x of [a, b]) {
      const r = await newAccount(t());
      Object.assign(x, { id: r.account.id, username: r.username, token: r.token });
    }
  });

  it('writes an unread message, sanitised, into the tenant’s message centre and no other', async () => {
    const res = await send(a.username, '--title', '服务到期提醒', '--content', '<p onclick="x()">请续费<script>alert(1)</script></p>', '--type', 'service');
    expect(res.code, res.err).toBe(0);
    const { id } = res.json<{ id: number }>();
    expect(await inbox(a.token)).toEqual([expect.objectContaining({ message_id: id, title: '服务到期提醒', type: 'service', status: 0 })]);
    expect((await t().call(accountInfo, { token: a.token })).data!.message_count).toBe(1);
    expect((await t().call(messageInfo, { token: a.token, query: { message_id: id } })).data!.content).toBe('<p>请续费</p>');
    expect(await inbox(b.token)).toEqual([]);
  });

  it('sends a system message when no type is given; the tenant may be named by id', async () => {
    const res = await send(String(b.id), '--title', '欢迎', '--content', '<p>欢迎使用</p>');
    expect(res.code, res.err).toBe(0);
    expect(await inbox(b.token)).toEqual([expect.objectContaining({ message_id: res.json<{ id: number }>().id, title: '欢迎', type: 'system' })]);
  });

  it('refuses a bad type, an empty title or content (exit 2), sending nothing', async () => {
    const before = await t().snapshot();
    const cases: [string[], string][] = [
      [['--title', '标题', '--content', '<p>x</p>', '--type', 'spam'], `--type: ${M.messageTypeInvalid}`],
      [['--title', ' ', '--content', '<p>x</p>'], `--title: ${M.messageTitleRequired}`],
      [['--content', '<p>x</p>'], `--title: ${M.messageTitleRequired}`],
      [['--title', 'x'.repeat(LIMITS.messageTitleMax + 1), '--content', '<p>x</p>'], `--title: ${fmt(M.messageTitleTooLong, { n: LIMITS.messageTitleMax })}`],
      [['--title', '标题'], `--content: ${M.messageContentRequired}`],
      [['--title', '标题', '--content', '<p>x</p>', '--priority', 'high'], "Unknown option '--priority'"],
    ];
    for (const [args, msg] of cases) {
      const res = await send(a.username, ...args);
      expect(res.code, msg).toBe(2);
      expect(res.err).toContain(msg);
    }
    expect(await ops(t(), ['messages', 'send', '--title', '标题', '--content', '<p>x</p>'])).toMatchObject({ code: 2, err: expect.stringContaining('<tenant>: a tenant (id or username) is required') });
    expect(await t().snapshot()).toEqual(before);
  });

  it('refuses an unknown tenant or content that is nothing once sanitised (exit 1), sending nothing', async () => {
    const before = await t().snapshot();
    expect(await send('nobody-here', '--title', '标题', '--content', '<p>x</p>')).toMatchObject({ code: 1, err: 'no tenant nobody-here\n' });
    expect(await send(a.username, '--title', '标题', '--content', '<script>alert(1)</script>')).toMatchObject({ code: 1, err: `${M.messageContentRequired}\n` });
    expect(await t().snapshot()).toEqual(before);
  });
});
