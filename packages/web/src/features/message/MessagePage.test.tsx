import { CODE, M, type Envelope, type MessageItem, type UserMessage } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mockApi, ok, refused, type Answers, type ApiCall } from '../../test/mockApi';
import { renderWithProviders } from '../../test/render';
import MessagePage from './MessagePage';

const user: UserMessage = {
  nickname: '小林',
  username: 'lin2024',
  ram: 0,
  user_phone: '',
  user_email: '',
  message_count: 2,
  sign: 'abc123',
  config: { software_auth_source: 0 },
  auth: { quagga: 0, quagga_advanced: 0, default_route: 0 },
  role: null,
};

const rows: MessageItem[] = [
  { message_id: 31, title: '服务即将到期', create_time: '2024-03-02 10:00:00', type: 'service', status: 0 },
  { message_id: 30, title: '欢迎使用', create_time: '2024-03-01 09:00:00', type: 'system', status: 1 },
  { message_id: 29, title: '告警：成员离线', create_time: '2024-02-28 08:00:00', type: 'alert', status: 0 },
];

const page = (data: MessageItem[], count = data.length): Envelope<MessageItem[]> => ({ code: CODE.ok, msg: 'success', data, count });

function setup(opts: { as?: UserMessage; answers?: Answers; route?: string } = {}) {
  session.setUser(opts.as ?? user);
  const m = mockApi({
    '/message/lists': page(rows),
    '/account/info': ok({ ...user, message_count: 1 }),
    '/message/update_message': ok(null, M.updated),
    '/message/delete_message': ok(null, M.deleted),
    ...opts.answers,
  });
  const r = renderWithProviders(<MessagePage />, { route: opts.route ?? '/account/message' });
  return { m, r };
}

/** A button's accessible name also carries its icon's label. */
const named = (text: string) => new RegExp(`${text}$`);
const rowOf = (title: string) => screen.getByText(title).closest('tr')!;
const confirmOk = async () => userEvent.click(await screen.findByRole('button', { name: /^确\s*定$/ }));

describe('MessagePage', () => {
  it('lists title, date and type, marking unread messages', async () => {
    const { m } = setup();
    expect(await screen.findByText('服务即将到期')).toBeInTheDocument();
    expect(m.callsTo('/message/lists')[0]!.query).toMatchObject({ page: '1' });
    expect(within(rowOf('服务即将到期')).getByRole('img', { name: M.messageUnread })).toBeInTheDocument();
    expect(within(rowOf('告警：成员离线')).getByRole('img', { name: M.messageUnread })).toBeInTheDocument();
    expect(within(rowOf('欢迎使用')).queryByRole('img', { name: M.messageUnread })).not.toBeInTheDocument();
    expect(within(rowOf('服务即将到期')).getByText('2024-03-02 10:00:00')).toBeInTheDocument();
    expect(within(rowOf('服务即将到期')).getByText(M.messageTypeService)).toBeInTheDocument();
    expect(within(rowOf('欢迎使用')).getByText(M.messageTypeSystem)).toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: M.messageColTitle })).toBeInTheDocument();
  });

  it('warns 请选择消息标题 and calls nothing when nothing is selected', async () => {
    const { m } = setup();
    await screen.findByText('服务即将到期');
    await userEvent.click(screen.getByRole('button', { name: named(M.messageDeleteSelected) }));
    expect(await screen.findByText(M.selectMessage)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: named(M.messageMarkSelectedRead) }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(m.callsTo('/message/delete_message')).toHaveLength(0);
    expect(m.callsTo('/message/update_message')).toHaveLength(0);
  });

  it('marks the selected messages read after confirmation, then refreshes the list and the unread count', async () => {
    const { m } = setup();
    await screen.findByText('服务即将到期');
    await userEvent.click(within(rowOf('服务即将到期')).getByRole('checkbox'));
    await userEvent.click(within(rowOf('告警：成员离线')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: named(M.messageMarkSelectedRead) }));
    expect(await screen.findByRole('dialog', { name: M.confirmMarkRead })).toBeInTheDocument();
    expect(m.callsTo('/message/update_message')).toHaveLength(0);
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/message/update_message')).toHaveLength(1));
    expect(m.callsTo('/message/update_message')[0]!.body).toEqual({ message_id: [31, 29] });
    expect(await screen.findByText(M.updated)).toBeInTheDocument();
    await waitFor(() => expect(m.callsTo('/message/lists').length).toBeGreaterThanOrEqual(2));
    await waitFor(() => expect(m.callsTo('/account/info')).toHaveLength(1));
    await waitFor(() => expect(session.user()!.message_count).toBe(1));
    await waitFor(() => expect(within(rowOf('服务即将到期')).getByRole('checkbox')).not.toBeChecked());
  });

  it('asks 是否确定删除? before deleting the selection, and does nothing when cancelled', async () => {
    const { m } = setup();
    await screen.findByText('服务即将到期');
    await userEvent.click(within(rowOf('欢迎使用')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: named(M.messageDeleteSelected) }));
    expect(await screen.findByRole('dialog', { name: M.confirmDelete })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: /^取\s*消$/ }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: M.confirmDelete })).not.toBeInTheDocument());
    expect(m.callsTo('/message/delete_message')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: named(M.messageDeleteSelected) }));
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/message/delete_message')).toHaveLength(1));
    expect(m.callsTo('/message/delete_message')[0]!.body).toEqual({ message_id: [30] });
    expect(await screen.findByText(M.deleted)).toBeInTheDocument();
  });

  it("marks all read and deletes all with type 'all', each after its confirmation", async () => {
    const { m } = setup();
    await screen.findByText('服务即将到期');
    await userEvent.click(screen.getByRole('button', { name: M.messageMarkAllRead }));
    expect(await screen.findByRole('dialog', { name: M.confirmMarkAllRead })).toBeInTheDocument();
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/message/update_message')).toHaveLength(1));
    expect(m.callsTo('/message/update_message')[0]!.body).toEqual({ type: 'all' });

    await userEvent.click(screen.getByRole('button', { name: M.messageDeleteAll }));
    expect(await screen.findByRole('dialog', { name: M.confirmDeleteAll })).toBeInTheDocument();
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/message/delete_message')).toHaveLength(1));
    expect(m.callsTo('/message/delete_message')[0]!.body).toEqual({ type: 'all' });
  });

  it('opens a message: title and sanitised content in a dialog, then the list and unread count refresh', async () => {
    const { m } = setup({
      answers: {
        '/message/info': ok({
          ...rows[0]!,
          status: 1,
          content: '<p>请及时<strong>续费</strong></p><img src="x.png" onerror="window.__pwned=1"><script>window.__pwned=1</script><a href="javascript:alert(1)">链接</a>',
        }),
      },
    });
    await userEvent.click(await screen.findByText('服务即将到期'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('服务即将到期')).toBeInTheDocument();
    expect(await within(dialog).findByText('续费')).toBeInTheDocument();
    expect(m.callsTo('/message/info')[0]!.query).toEqual({ message_id: '31' });
    const img = dialog.querySelector('img[src="x.png"]')!;
    expect(img).not.toHaveAttribute('onerror');
    expect(dialog.querySelector('script')).toBeNull();
    expect(within(dialog).getByText('链接')).not.toHaveAttribute('href');
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
    await waitFor(() => expect(m.callsTo('/account/info')).toHaveLength(1));
    await waitFor(() => expect(m.callsTo('/message/lists').length).toBeGreaterThanOrEqual(2));
    await userEvent.click(within(dialog).getByRole('button', { name: M.close }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('stays on the page and reloads the list when the selection is gone (204)', async () => {
    const { m, r } = setup({ answers: { '/message/update_message': refused(M.messageNotFound, CODE.notFound) } });
    await screen.findByText('服务即将到期');
    await userEvent.click(within(rowOf('服务即将到期')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: named(M.messageMarkSelectedRead) }));
    await confirmOk();
    expect(await screen.findByText(M.messageNotFound)).toBeInTheDocument();
    await waitFor(() => expect(m.callsTo('/message/lists').length).toBeGreaterThanOrEqual(2));
    expect(r.location()).toBe('/account/message');
  });

  it('clears the selection on another page, and goes back a page when deleting empties the last one', async () => {
    const eleven = Array.from({ length: 11 }, (_, i): MessageItem => ({ ...rows[1]!, message_id: 100 - i, title: `消息${i + 1}` }));
    let remaining = eleven;
    const { m, r } = setup({
      answers: {
        '/message/lists': (c: ApiCall) => {
          const p = Number(c.query.page);
          return page(remaining.slice((p - 1) * 10, p * 10), remaining.length);
        },
        '/message/delete_message': (c: ApiCall) => {
          const ids = c.body!.message_id as number[];
          remaining = remaining.filter((x) => !ids.includes(x.message_id));
          return ok(null, M.deleted);
        },
      },
    });
    await screen.findByText('消息1');
    await userEvent.click(within(rowOf('消息1')).getByRole('checkbox'));
    await userEvent.click(within(r.container.querySelector('.ant-pagination') as HTMLElement).getByTitle('2'));
    await screen.findByText('消息11');
    await userEvent.click(within(rowOf('消息11')).getByRole('checkbox'));
    await userEvent.click(screen.getByRole('button', { name: named(M.messageDeleteSelected) }));
    await confirmOk();
    await waitFor(() => expect(m.callsTo('/message/delete_message')).toHaveLength(1));
    // Only the row selected on this page: the selection of page 1 was cleared.
    expect(m.callsTo('/message/delete_message')[0]!.body).toEqual({ message_id: [90] });
    expect(await screen.findByText('消息1')).toBeInTheDocument();
    expect(m.callsTo('/message/lists').at(-1)!.query).toMatchObject({ page: '1' });
  });

  it('shows a sub-account no delete buttons', async () => {
    setup({ as: { ...user, ram: 1, username: 'wang@lin2024' } });
    await screen.findByText('服务即将到期');
    expect(screen.getByRole('button', { name: named(M.messageMarkSelectedRead) })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: M.messageMarkAllRead })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: named(M.messageDeleteSelected) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.messageDeleteAll })).not.toBeInTheDocument();
  });

  it('shows the empty text and disables the all-buttons when there is no message', async () => {
    setup({ answers: { '/message/lists': page([]) } });
    expect(await screen.findByText(M.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: M.messageMarkAllRead })).toBeDisabled();
    expect(screen.getByRole('button', { name: M.messageDeleteAll })).toBeDisabled();
  });

  it('opened from the overview with ?type=alert, lists alert messages only and says so; the notice shows all again', async () => {
    const { m, r } = setup({ route: '/account/message?type=alert', answers: { '/message/lists': (c: ApiCall) => page(c.query.type === 'alert' ? rows.filter((x) => x.type === 'alert') : rows) } });
    expect(await screen.findByText('告警：成员离线')).toBeInTheDocument();
    expect(m.callsTo('/message/lists')[0]!.query).toEqual({ page: '1', type: 'alert' });
    expect(screen.getByText(M.messageFilterAlert)).toBeInTheDocument();
    expect(screen.queryByText('服务即将到期')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: M.messageFilterClear }));
    expect(await screen.findByText('服务即将到期')).toBeInTheDocument();
    expect(r.location()).toBe('/account/message');
    expect(m.callsTo('/message/lists').at(-1)!.query).toEqual({ page: '1' });
  });
});
