import { fmt, listMessages, M, messageInfo } from '@hublink/contract';
import { expect, it } from 'vitest';
import { describeEachDatabase, newAccount } from '../../../test/helpers';
import { writeTicketReplyMessage } from './ticketReplies';

describeEachDatabase('ticket reply notices (ticket.replied)', (t) => {
  it('writes one notice per answer, its texts escaped, however often it is told', async () => {
    const a = await newAccount(t());
    const event = { type: 'ticket.replied' as const, tenant_id: a.account.id, ticket_id: 3, dialogue_id: 9, ticket_number: 'T20260101123456', ticket_title: '<img src=x onerror=alert(1)>', adviser: '小刘' };
    await writeTicketReplyMessage(event, t().ctx);
    await writeTicketReplyMessage(event, t().ctx);
    const list = await t().call(listMessages, { token: a.token, query: { page: 1 } });
    expect(list.count).toBe(1);
    expect(list.data![0]).toMatchObject({ title: fmt(M.supportNoticeTitle, { number: event.ticket_number }), type: 'ticket', status: 0 });
    const content = (await t().call(messageInfo, { token: a.token, query: { message_id: list.data![0]!.message_id } })).data!.content;
    expect(content).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(content).toContain('<a href="/ticket/detail?ticket_number=T20260101123456"');
    await writeTicketReplyMessage({ ...event, dialogue_id: 10 }, t().ctx);
    expect((await t().call(listMessages, { token: a.token, query: { page: 1 } })).count).toBe(2);
  });
});
