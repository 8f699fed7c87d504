import { fmt, LIMITS, M, type RoleAuth, type RouterItem, CM } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { saver } from '../../api/files';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import RouterListPage from './RouterListPage';
import { hardwareRows, softwareRows } from './testData';

function api(lists?: (type: string, search?: string) => { data: RouterItem[]; count: number }) {
  return mockApi({
    '/router/lists': (c) => {
      const r = lists ? lists(c.query.type!, c.query.search) : c.query.type === '2' ? { data: softwareRows, count: 2 } : { data: hardwareRows, count: 1 };
      return { code: 200, msg: 'success', ...r };
    },
    '/router/quantity': ok({ hardware: 1, software: 2, max: 10, software_surplus: 7 }),
    '/router/delete': ok(null, M.deleted),
    '/router/update_status': ok({ status: 1 }, M.memberStatusEnabled),
    '/logs/software_login': { code: 200, msg: 'success', data: [], count: 0 },
    '/logs/online': { code: 200, msg: 'success', data: [], count: 0 },
  });
}

const u = () => userEvent.setup({ delay: null });

/** The entries of a row's 更多 menu (opened, read, closed again). */
async function moreActions(row: HTMLElement): Promise<string[]> {
  await u().click(within(row).getByRole('button', { name: new RegExp(`^${M.memberActionMore} `) }));
  const menu = await screen.findByRole('menu');
  const items = within(menu).getAllByRole('menuitem').map((i) => i.textContent ?? '');
  await u().keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
  return items;
}

/** Several dialogs' worth of typing and clicking; antd in jsdom is slow on a loaded machine. */
const LONG = 60_000;

describe('RouterListPage', () => {
  it('the tabs switch the type query and the URL; the quantity shows used / max', async () => {
    session.setUser(mainUser);
    const m = api();
    const r = renderWithProviders(<RouterListPage />, { route: '/router/lists' });
    await shows('gw-beijing');
    expect(m.callsTo('/router/lists')[0]!.query).toEqual({ page: '1', type: '1' });
    await shows(`成员数 3 / 10`);
    // Hardware: no software-only buttons.
    expect(screen.queryByRole('button', { name: M.memberBatchAdd })).not.toBeInTheDocument();
    await u().click(screen.getByRole('tab', { name: M.memberTabSoftware }));
    await shows('alice01');
    expect(m.callsTo('/router/lists').at(-1)!.query).toEqual({ page: '1', type: '2' });
    expect(r.location()).toBe('/router/lists?type=2');
  }, LONG);

  it('links hardware member names to the router detail page; the actions stay fixed on the right', async () => {
    session.setUser(mainUser);
    api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists' });
    await shows('gw-beijing');
    expect(screen.getByRole('link', { name: 'gw-beijing' })).toHaveAttribute('href', '/router/detail?router_name=gw-beijing');
    expect(screen.getByRole('columnheader', { name: M.memberColActions }).className).toMatch(/ant-table-cell-fix-(right|end)/);
  }, LONG);

  it('with no place left under the plan, 添加成员 shows the quota refusal of spec 2 §5 instead of the form', async () => {
    session.setUser(mainUser);
    const m = api();
    m.answer('/router/quantity', ok({ hardware: 4, software: 6, max: 10, software_surplus: 0 }));
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    await shows(fmt(M.memberQuantity, { n: 10, max: 10 }));
    await u().click(screen.getByRole('button', { name: new RegExp(M.memberAdd) }));
    await shows(fmt(M.memberQuotaFull, { n: 10 }));
    expect(screen.queryByText(M.memberAddSoftwareTitle)).not.toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: M.networkUpgradeNow }));
    await shows(M.networkNoUpgrade);
    expect(m.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    // 批量添加 still opens: it shows the latest import, and the server refuses rows beyond the plan row by row.
    m.answer('/router/batch_status', ok(null));
    await u().click(screen.getByRole('button', { name: M.memberBatchAdd }));
    await shows(M.memberTemplateDownload);
  }, LONG);

  it('the software tab has its own buttons and searches', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    await shows('alice01');
    for (const name of [M.memberExport, M.memberBatchAdd, M.memberBatchDelete, M.memberAdd]) expect(screen.getByRole('button', { name: new RegExp(name) })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: `后缀：${mainUser.sign}` })).toBeInTheDocument();
    await u().type(screen.getByPlaceholderText(M.memberSearch), 'bob{Enter}');
    await waitFor(() => expect(m.callsTo('/router/lists').at(-1)!.query).toEqual({ page: '1', type: '2', search: 'bob' }));
  }, LONG);

  it('cuts long notes to 18 characters with the full text on hover; shows phone, login state and status', async () => {
    session.setUser(mainUser);
    api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    const note = softwareRows[0]!.note;
    const cut = `${[...note].slice(0, LIMITS.memberNoteShown).join('')}…`;
    await shows(cut);
    await u().hover(screen.getByText(cut));
    await shows(note);
    const row = screen.getByText('alice01').closest('tr')!;
    expect(within(row).getByText('+86 13800000001')).toBeInTheDocument();
    expect(within(row).getByText(M.memberOnline)).toBeInTheDocument();
    expect(within(row).getByRole('switch')).toBeChecked();
    const bob = screen.getByText('bob02').closest('tr')!;
    expect(within(bob).getByText(M.memberOffline)).toBeInTheDocument();
    expect(within(bob).getByRole('switch')).not.toBeChecked();
    // The phone and password actions are under the row's 更多; a directory member has no password of ours.
    expect(await moreActions(row)).toEqual([M.memberPhoneChangeTitle, M.memberActionPassword]);
    expect(await moreActions(bob)).toEqual([M.memberPhoneBindTitle]);
  }, LONG);

  it('switches a software member on or off through /router/update_status', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    const bob = (await screen.findByText('bob02')).closest('tr')!;
    await u().click(within(bob).getByRole('switch'));
    await waitFor(() => expect(m.callsTo('/router/update_status')).toHaveLength(1));
    expect(m.callsTo('/router/update_status')[0]!.body).toEqual({ router_name: 'bob02' });
    await shows(M.memberStatusEnabled);
  }, LONG);

  it('deletes a member only once its exact name is typed', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists' });
    const row = (await screen.findByText('gw-beijing')).closest('tr')!;
    await u().click(within(row).getByRole('button', { name: M.memberActionDelete }));
    const dialog = await screen.findByRole('dialog');
    const ok = () => within(dialog).getByRole('button', { name: /删\s*除/ });
    expect(ok()).toBeDisabled();
    const input = within(dialog).getByLabelText('请输入“gw-beijing”');
    await u().type(input, 'gw-beijin');
    expect(ok()).toBeDisabled();
    await u().type(input, 'G');
    expect(ok()).toBeDisabled();
    expect(m.callsTo('/router/delete')).toHaveLength(0);
    await u().clear(input);
    await u().type(input, 'gw-beijing');
    expect(ok()).toBeEnabled();
    await u().click(ok());
    await waitFor(() => expect(m.callsTo('/router/delete')).toHaveLength(1));
    expect(m.callsTo('/router/delete')[0]!.body).toEqual({ router_name: 'gw-beijing' });
    await shows(M.deleted);
  }, LONG);

  it("export warns '数据为空，请重新筛选数据！' without a call when the list is empty", async () => {
    session.setUser(mainUser);
    const m = api((type) => ({ data: [], count: type === '2' ? 0 : 1 }));
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    await waitFor(() => expect(m.callsTo('/router/lists')).toHaveLength(1));
    await waitFor(() => expect(document.querySelector('.ant-spin-spinning')).toBeNull());
    await u().click(screen.getByRole('button', { name: new RegExp(M.memberExport) }));
    await shows(M.exportEmpty);
    expect(m.callsTo('/router/export')).toHaveLength(0);
  }, LONG);

  it('exports the current search as a file, and warns with the server message when it answers an envelope', async () => {
    session.setUser(mainUser);
    const save = vi.spyOn(saver, 'save').mockImplementation(() => {});
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    await shows('alice01');
    await u().type(screen.getByPlaceholderText(M.memberSearch), 'ali{Enter}');
    // The server finds nothing for the search after all: its message shows as a warning.
    m.answer('/router/export', refused(M.exportEmpty));
    await u().click(screen.getByRole('button', { name: new RegExp(M.memberExport) }));
    await waitFor(() => expect(m.callsTo('/router/export')).toHaveLength(1));
    expect(m.callsTo('/router/export')[0]!.query).toEqual({ type: '2', search: 'ali' });
    await shows(M.exportEmpty);
    expect(save).not.toHaveBeenCalled();
    // A file answer is saved under the server's name.
    m.fetch.mockImplementationOnce(
      async () =>
        new Response(new Blob(['xlsx']), {
          status: 200,
          headers: { 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'Content-Disposition': `attachment; filename="_.xlsx"; filename*=UTF-8''${encodeURIComponent('成员列表-20260102.xlsx')}` },
        }),
    );
    await u().click(screen.getByRole('button', { name: new RegExp(M.memberExport) }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save.mock.calls[0]![1]).toBe('成员列表-20260102.xlsx');
    await shows(M.exported);
  }, LONG);

  it('a sub-account sees only what its role grants, no suffix, and no login records', async () => {
    const role: RoleAuth = {
      'easylink.router': { create: 0, edit: 1, delete: 0 },
      'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    };
    session.setUser({ ...ramUser, role } as typeof ramUser);
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    const row = (await screen.findByText('alice01')).closest('tr')!;
    expect(screen.queryByRole('button', { name: new RegExp(M.memberAdd) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.memberBatchAdd })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.memberBatchDelete })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /后缀/ })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: M.memberActionDelete })).not.toBeInTheDocument();
    expect(await moreActions(row)).toEqual([M.memberPhoneChangeTitle, M.memberActionPassword]);
    // The name opens /router/detail as a hardware name does (spec 3 §2); 连接与记录 opens the member detail:
    // its connection (the role may edit members) and dial records, no login records.
    expect(within(row).getByRole('link', { name: 'alice01' })).toHaveAttribute('href', '/router/detail?router_name=alice01');
    m.answer('/router/profiles', ok({ login: 'alice01@corp1', phone: '', networks: [] }));
    await u().click(within(row).getByRole('button', { name: `${M.memberActionRecords} alice01` }));
    await shows('成员详情 - alice01');
    expect(within(screen.getByRole('dialog')).getAllByRole('tab').map((tab) => tab.textContent)).toEqual([CM.profileTab, M.memberDialRecords]);
    await u().click(screen.getByRole('tab', { name: M.memberDialRecords }));
    await waitFor(() => expect(m.callsTo('/logs/online')).toHaveLength(1));
    expect(m.callsTo('/logs/software_login')).toHaveLength(0);
  }, LONG);
  it('offers sync users on the software tab while LDAP is on in manual mode, with the listing’s hash', async () => {
    session.setUser(mainUser);
    const m = api();
    m.answer('/ldap/status', ok({ enable: 1, sync_mode: 1 }));
    m.answer('/ldap/user', { code: 200, msg: 'success', data: { list: [], hash: 'h7' }, count: 0 });
    m.answer('/ldap/sync', ok(null, M.ldapSynced));
    const r = renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
    await shows('alice01');
    await u().click(await screen.findByRole('button', { name: new RegExp(M.ldapSyncUsers) }));
    await waitFor(() => expect(m.callsTo('/ldap/sync')[0]?.body).toEqual({ hash: 'h7' }));
    await shows(M.ldapSynced);
    r.unmount();

    // Automatic mode, or LDAP off: no button.
    for (const status of [{ enable: 1, sync_mode: 2 }, { enable: 0, sync_mode: 1 }]) {
      const m2 = api();
      m2.answer('/ldap/status', ok(status));
      const again = renderWithProviders(<RouterListPage />, { route: '/router/lists?type=2' });
      await shows('bob02');
      // The answer is in (and rendered): only then does no button mean none.
      await waitFor(() => expect(again.queryClient.getQueryData(['/ldap/status', {}])).toBeDefined());
      expect(screen.queryByRole('button', { name: new RegExp(M.ldapSyncUsers) })).not.toBeInTheDocument();
      again.unmount();
    }
  });

  it('opened from the overview with ?state=, lists only those members on both tabs, says so, and shows all again', async () => {
    session.setUser(mainUser);
    const m = api();
    const r = renderWithProviders(<RouterListPage />, { route: '/router/lists?type=1&state=behind' });
    await shows('gw-beijing');
    expect(m.callsTo('/router/lists')[0]!.query).toEqual({ page: '1', type: '1', state: 'behind' });
    expect(screen.getByText(M.memberFilterBehind)).toBeInTheDocument();
    await u().click(screen.getByRole('tab', { name: M.memberTabSoftware }));
    await shows('alice01');
    expect(m.callsTo('/router/lists').at(-1)!.query).toEqual({ page: '1', type: '2', state: 'behind' });
    expect(r.location()).toBe('/router/lists?type=2&state=behind');
    await u().click(screen.getByRole('button', { name: M.memberFilterClear }));
    await waitFor(() => expect(r.location()).toBe('/router/lists?type=2'));
    await waitFor(() => expect(m.callsTo('/router/lists').at(-1)!.query).toEqual({ page: '1', type: '2' }));
    expect(screen.queryByText(M.memberFilterBehind)).not.toBeInTheDocument();
  }, LONG);

  it('ignores a state it does not know', async () => {
    session.setUser(mainUser);
    const m = api();
    renderWithProviders(<RouterListPage />, { route: '/router/lists?state=asleep' });
    await shows('gw-beijing');
    expect(m.callsTo('/router/lists')[0]!.query).toEqual({ page: '1', type: '1' });
  }, LONG);
});
