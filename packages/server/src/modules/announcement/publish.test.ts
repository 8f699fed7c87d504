import { announcementInfo, CODE, fmt, LIMITS, M } from '@hublink/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { publish } from './service';

describeEachDatabase('publishing an announcement (service layer)', (t) => {
  let token = '';

  beforeAll(async () => {
    token = (await newAccount(t())).token;
  });

  it('stores the HTML sanitised: no scripts, event handlers or javascript: URLs', async () => {
    const id = await publish(t().ctx, {
      title: '系统升级公告',
      tag: '通知',
      content: '<p onmouseover="x()">升级<script>fetch("//evil")</script>完成</p><a href="JaVaScRiPt:alert(1)">点此</a><img src="/files/a.png" onerror="x()">',
    });
    const res = await t().call(announcementInfo, { token, query: { id } });
    expect(res.data!.content).toBe('<p>升级完成</p><a>点此</a><img src="/files/a.png" />');
  });

  it('refuses a missing title, an over-long tag or an empty content, storing nothing', async () => {
    const rows = async () => t().db.selectFrom('announcement').selectAll().orderBy('id').execute();
    const before = await rows();
    const cases: [Parameters<typeof publish>[1], string][] = [
      [{ title: '', tag: '', content: '<p>x</p>' }, M.announcementTitleRequired],
      [{ title: 't', tag: 'x'.repeat(LIMITS.announcementTagMax + 1), content: '<p>x</p>' }, fmt(M.announcementTagTooLong, { n: LIMITS.announcementTagMax })],
      [{ title: 't', tag: '', content: '<script>alert(1)</script>' }, M.announcementContentRequired],
    ];
    for (const [input, msg] of cases) {
      await expect(publish(t().ctx, input)).rejects.toMatchObject({ code: CODE.invalid, message: msg });
    }
    expect(await rows()).toEqual(before);
  });
});
