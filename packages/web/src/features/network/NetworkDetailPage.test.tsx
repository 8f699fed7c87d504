import { fmt, M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { detail, link, member } from '../../test/networkFixtures';
import NetworkDetailPage from './NetworkDetailPage';

const members = [
  member({ router_name: 'R1', member_type: 'center', online: 1, routing: 1, note: '上海总部的核心路由器一号机柜第三层左侧' }),
  member({ router_name: 'R2', member_type: 'center', online: 0, routing: 2, default_route: 1, metric: 60, quagga: 1 }),
  member({ router_name: 'A1', router_type: 2, online: 1, ov_id: { main: 1, backup: 2, main_name: '华南', backup_name: '华北', priority: 3 } }),
];

function setup(over: Parameters<typeof detail>[0] = {}, user = mainUser) {
  session.setUser(user);
  const m = mockApi({
    '/network/info': ok(detail({ member: members, member_count: 3, ...over })),
    // The confirmations of the quagga switches preview their change.
    '/network/preview': ok({ members: [], member_count: 0, reach: [], reach_count: 0, viewer: null }),
    '/network/status': ok({ network_status: over.network_status ?? 1, link: [link({ router_name: 'A1', center_router_name: 'R1', vpn_online: 1 })], link_count: 1, online: { R1: 1, R2: 0, A1: 1 },
      device: {
        R1: { config_version: 3, applied_version: 3, applied_error: '', command: { kind: 'kill', state: 'done', error: '', update_time: '2026-11-23 10:00:00' } },
        A1: { config_version: 2, applied_version: 1, applied_error: 'openvpn exited', command: null },
      },
    }),
    '/network/remove_member': ok(null, '移除成功'),
    '/network/add_member': ok(null, '添加成功'),
    '/network/kill_user': ok(null, '指令已下发'),
    '/network/reset_respawn': ok(null, '指令已下发'),
    '/network/re_send_config': ok(null, '配置已下发，设备上线后生效'),
    '/network/quagga': ok(null, '设置成功'),
    '/network/quagga_enable': ok(null, '设置成功'),
    '/network/quagga_disable': ok(null, '设置成功'),
    '/network/ciphers': ok(null, '修改成功'),
    '/router/member': ok({
      router: [
        { router_name: 'R1', note: '', router_type: 1, online: 1 },
        { router_name: 'R3', note: '深圳', router_type: 1, online: 0 },
      ],
      app: [{ router_name: 'A9', note: '', router_type: 2, online: 0 }],
    }),
  });
  const r = renderWithProviders(<NetworkDetailPage />, { route: '/network/detail?network_number=N1' });
  return { m, r };
}

const membersCard = () => within(screen.getByLabelText(M.networkMembers));
const row = (name: string) => membersCard().getByText(name).closest('tr') as HTMLElement;

describe('NetworkDetailPage', () => {
  it('shows the summary and the members with their positions, lines, POP areas and online-only actions', async () => {
    const linkOn = { ...detail().network_center_link_network, center_router_name: 'R1', line_mode: 2 };
    const { m } = setup({ network_service: 2, ncp_ciphers: 'sm', mode: 3, network_center_link: 1, network_center_link_network: linkOn, network_fr: { network_fr_id: 1, shortname: 'POP-华东' } });
    await shows('R1');
    expect(m.callsTo('/network/info')[0]!.query).toEqual({ network_number: 'N1', member_page: '1', link_page: '1', page_size: '10' });
    const mainBackup = fmt(M.netSetRoutingMainBackupOf, { name: 'R1' });
    for (const text of [M.networkLevelStandard, M.networkCiphersSm, M.networkModePop, 'POP-华东', M.networkOn, mainBackup]) expect(screen.getByText(text)).toBeInTheDocument();

    // Member names are plain text until the router detail page exists; the actions stay fixed on the right.
    expect(membersCard().getByText('R1').closest('a')).toBeNull();
    expect(membersCard().getByText('A1').closest('a')).toBeNull();
    expect(membersCard().getByRole('columnheader', { name: M.networkColActions }).className).toMatch(/ant-table-cell-fix-(right|end)/);

    expect(within(row('R1')).getByText('上海总部的核心路由器一号机柜第三层左…')).toBeInTheDocument();
    expect(within(row('R1')).getByText(M.networkLineMain)).toBeInTheDocument();
    expect(within(row('R2')).getByText(M.networkLineBackup)).toBeInTheDocument();
    expect(within(row('A1')).getByText('华南')).toBeInTheDocument();
    expect(within(row('A1')).getByText('华北')).toBeInTheDocument();

    // Without the feature flags there are no default-route and dynamic-routing columns.
    expect(screen.queryByText(M.networkDefaultRoute)).not.toBeInTheDocument();
    expect(screen.queryByText(M.networkQuagga)).not.toBeInTheDocument();

    expect(within(row('R1')).getByText(M.networkMemberDetail)).toBeInTheDocument();
    expect(within(row('R1')).getByText(M.networkKick)).toBeInTheDocument();
    expect(within(row('R2')).queryByText(M.networkMemberDetail)).not.toBeInTheDocument();
    expect(within(row('R2')).queryByText(M.networkKick)).not.toBeInTheDocument();
    expect(within(row('R2')).queryByText(M.networkRespawn)).not.toBeInTheDocument();
    expect(screen.getByText(M.networkAddMember)).toBeInTheDocument();
    expect(screen.getByText(M.networkConfig)).toBeInTheDocument();
    expect(screen.queryByText(M.networkDisabledBanner)).not.toBeInTheDocument();
  });

  it("shows each member's config version, whether its device applied it, and its latest command", async () => {
    setup();
    await shows('R1');
    await waitFor(() => expect(within(row('R1')).getByText(fmt(M.networkConfigVersion, { version: 3 }))).toBeInTheDocument());
    expect(within(row('R1')).getByText(M.networkConfigApplied)).toBeInTheDocument();
    expect(within(row('R1')).getByText(fmt(M.networkCommandLabel, { kind: M.networkKick }))).toBeInTheDocument();
    expect(within(row('R1')).getByText(M.networkCommandDone)).toBeInTheDocument();
    expect(within(row('A1')).getByText(M.networkConfigFailed)).toBeInTheDocument();
    expect(within(row('R2')).queryByText(M.networkConfigApplied)).not.toBeInTheDocument();
  });

  it('shows default route with its priority and dynamic routing when the account has them', async () => {
    setup({}, { ...mainUser, auth: { quagga: 1, quagga_advanced: 0, default_route: 1 } });
    await shows('R2');
    expect(within(row('R2')).getByText(`${M.networkRouteAdvertise} 优先级2`)).toBeInTheDocument();
    expect(within(row('R2')).getByText(M.networkOn)).toBeInTheDocument();
    expect(within(row('R1')).getAllByText(M.networkOff)).toHaveLength(2);
  });

  it('status 0: the banner shows, add member and the config menu are hidden', async () => {
    setup({ network_status: 0 });
    await shows(M.networkDisabledBanner);
    expect(screen.queryByText(M.networkAddMember)).not.toBeInTheDocument();
    expect(screen.queryByText(M.networkConfig)).not.toBeInTheDocument();
  });

  it('removes a member after the confirmation', async () => {
    const { m } = setup();
    await shows('R2');
    await userEvent.click(screen.getByLabelText(`${M.networkRemove} R2`));
    await shows(M.networkConfirmRemove);
    expect(m.callsTo('/network/remove_member')).toHaveLength(0);
    await userEvent.click(screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!);
    await waitFor(() => expect(m.callsTo('/network/remove_member')).toHaveLength(1));
    expect(m.callsTo('/network/remove_member')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2' });
  });

  it('lists the polled links with their status', async () => {
    setup();
    const links = within(await screen.findByLabelText(M.networkLinks));
    // The link of the first poll replaces the one the detail came with.
    await waitFor(() => expect(links.getByText('A1')).toBeInTheDocument());
    const linkRow = links.getByText('A1').closest('tr') as HTMLElement;
    expect(within(linkRow).getByText('A1')).toBeInTheDocument();
    expect(within(linkRow).getByText(M.networkOnline)).toBeInTheDocument();
    // With two centers, the link says which line its center is (the point on its main line here).
    expect(within(linkRow).getByText(M.networkLineMain)).toBeInTheDocument();
  });

  it('adds a member that is not in the network; centers within the limit, software only as a point', async () => {
    const { m } = setup();
    await shows('R1');
    await userEvent.click(screen.getByText(M.networkAddMember).closest('button')!);
    await userEvent.click(await screen.findByLabelText(M.networkMemberName));
    await screen.findByTitle('R3（深圳）');
    // Members already in the network are not offered.
    expect(screen.queryByTitle('R1')).not.toBeInTheDocument();

    await userEvent.click(screen.getByTitle('A9'));
    await waitFor(() => expect(screen.getByLabelText(M.networkPositionCenter)).toBeDisabled());

    await userEvent.click(screen.getByLabelText(M.networkMemberName));
    await userEvent.click(await screen.findByTitle('R3（深圳）'));
    await waitFor(() => expect(screen.getByLabelText(M.networkPositionCenter)).toBeEnabled());
    await userEvent.click(screen.getByLabelText(M.networkPositionCenter));
    await userEvent.click(screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!);
    // Two centers already and a limit of one.
    await shows('中心点仅支持1个');
    expect(m.callsTo('/network/add_member')).toHaveLength(0);

    await userEvent.click(screen.getByLabelText(M.networkPositionPoint));
    await userEvent.click(screen.getAllByText(/确\s*定|OK/).at(-1)!.closest('button')!);
    await waitFor(() => expect(m.callsTo('/network/add_member')).toHaveLength(1));
    expect(m.callsTo('/network/add_member')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R3', member_type: 'point' });
  });

  const confirm = async () => {
    const buttons = await screen.findAllByText(/确\s*定|OK/);
    await userEvent.click(buttons.at(-1)!.closest('button')!);
  };

  it('kicks an online member offline and restarts its service after confirmations, showing the queued message', async () => {
    const { m } = setup();
    await shows('R1');
    expect(within(row('R2')).queryByText(M.networkKick)).not.toBeInTheDocument();
    await userEvent.click(screen.getByLabelText(`${M.networkKick} R1`));
    await shows('是否将R1踢下线?');
    expect(m.callsTo('/network/kill_user')).toHaveLength(0);
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/kill_user')).toHaveLength(1));
    expect(m.callsTo('/network/kill_user')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R1' });
    await shows('指令已下发');

    const infoCalls = m.callsTo('/network/info').length;
    await userEvent.click(screen.getByLabelText(`${M.networkRespawn} A1`));
    await shows('是否重启A1的服务?');
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/reset_respawn')).toHaveLength(1));
    expect(m.callsTo('/network/reset_respawn')[0]!.body).toEqual({ network_number: 'N1', router_name: 'A1' });
    // The detail reloads after a change.
    await waitFor(() => expect(m.callsTo('/network/info').length).toBeGreaterThan(infoCalls));
  });

  it('a sub-account without the edit right gets no commands, switches or live config entries', async () => {
    const role = {
      'easylink.router': { create: 0, edit: 0, delete: 0 },
      'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    };
    setup({}, { ...mainUser, ram: 1, role, auth: { quagga: 1, quagga_advanced: 0, default_route: 1 } } as typeof mainUser);
    await shows('R1');
    expect(screen.queryByLabelText(`${M.networkKick} R1`)).not.toBeInTheDocument();
    expect(screen.queryByText(M.netSetQuaggaAllOn)).not.toBeInTheDocument();
    expect(screen.queryByLabelText(`${M.netSetRouteEdit} ${M.networkDefaultRoute} R1`)).not.toBeInTheDocument();
    expect(screen.queryByRole('switch')).not.toBeInTheDocument();
  });

  it('toggles a member’s dynamic routing and all of them after confirmations; edits the default route', async () => {
    const { m } = setup({}, { ...mainUser, auth: { quagga: 1, quagga_advanced: 0, default_route: 1 } });
    await shows('R2');
    await userEvent.click(screen.getByLabelText('R2的动态路由'));
    await shows('是否关闭R2的动态路由?');
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/quagga')).toHaveLength(1));
    expect(m.callsTo('/network/quagga')[0]!.body).toEqual({ network_number: 'N1', router_name: 'R2', enable: 0 });

    await userEvent.click(screen.getByText(M.netSetQuaggaAllOn).closest('button')!);
    await shows(M.netSetQuaggaAllOnConfirm);
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/quagga_enable')).toHaveLength(1));
    expect(m.callsTo('/network/quagga_enable')[0]!.body).toEqual({ network_number: 'N1' });

    await userEvent.click(screen.getByText(M.netSetQuaggaAllOff).closest('button')!);
    await shows(M.netSetQuaggaAllOffConfirm);
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/quagga_disable')).toHaveLength(1));

    await userEvent.click(screen.getByLabelText(`${M.netSetRouteEdit} ${M.networkDefaultRoute} R2`));
    await shows('默认路由：R2');
    expect(screen.getByRole('radio', { name: M.networkRouteAdvertise })).toBeChecked();
  });

  it('every entry of the config menu is enabled for the edit right, and resending the config asks first', async () => {
    const { m } = setup();
    await shows('R1');
    await userEvent.click(screen.getByText(M.networkConfig).closest('button')!);
    const entry = async (label: string) => (await screen.findByText(label, { selector: '.ant-dropdown-menu-title-content span' })).closest('li')!;
    expect(await entry(M.networkMenuRouting)).not.toHaveClass('ant-dropdown-menu-item-disabled');
    expect(await entry(M.networkMenuDns)).not.toHaveClass('ant-dropdown-menu-item-disabled');
    expect(await entry(M.networkMenuInterconnect)).not.toHaveClass('ant-dropdown-menu-item-disabled');
    expect(await entry(M.networkMenuAccessPop)).not.toHaveClass('ant-dropdown-menu-item-disabled');

    await userEvent.click(await entry(M.netSetResend));
    await shows(M.netSetResendConfirm);
    expect(m.callsTo('/network/re_send_config')).toHaveLength(0);
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/re_send_config')).toHaveLength(1));
    expect(m.callsTo('/network/re_send_config')[0]!.body).toEqual({ network_number: 'N1' });
    await shows('配置已下发，设备上线后生效');

    await userEvent.click(screen.getByText(M.networkConfig).closest('button')!);
    await userEvent.click(await entry(M.networkMenuCiphers));
    await userEvent.click(await screen.findByLabelText(M.netSetCiphersSm));
    await confirm();
    await waitFor(() => expect(m.callsTo('/network/ciphers')).toHaveLength(1));
  });

  it('asks the server for one page of members and one of links, and the next page when asked (issue 34)', async () => {
    session.setUser(mainUser);
    const centers = [member({ router_name: 'C1', member_type: 'center', online: 1 })];
    const points = Array.from({ length: 24 }, (_, i) => member({ router_name: `P${String(i + 1).padStart(2, '0')}` }));
    const all = [...centers, ...points];
    const links = points.map((p) => link({ router_name: p.router_name, center_router_name: 'C1' }));
    const pageOf = <T,>(list: T[], page: string | undefined, size: number) => list.slice((Number(page ?? 1) - 1) * size, Number(page ?? 1) * size);
    const m = mockApi({
      '/network/info': ({ query }) => {
        const size = Number(query.page_size ?? 10);
        const page = pageOf(all, query.member_page, size);
        const shown = query.link_page ? pageOf(links, query.link_page, size) : links.filter((l) => page.some((p) => p.router_name === l.router_name));
        return ok(detail({ member: page, centers, member_count: all.length, link: shown, link_count: links.length }));
      },
      '/network/status': ({ query }) =>
        ok({ network_status: 1, link: pageOf(links, query.link_page, 10), link_count: links.length, online: Object.fromEntries(pageOf(all, query.member_page, 10).map((p) => [p.router_name, 0])), device: {} }),
    });
    renderWithProviders(<NetworkDetailPage />, { route: '/network/detail?network_number=N1' });
    await shows('P09');
    expect(membersCard().queryByText('P10')).toBeNull();
    const memberPager = within(screen.getByLabelText(M.networkMembers));
    await userEvent.click(memberPager.getByTitle('2'));
    await waitFor(() => expect(membersCard().getByText('P10')).toBeInTheDocument());
    expect(membersCard().queryByText('P09')).toBeNull();
    expect(m.callsTo('/network/info').at(-1)!.query).toMatchObject({ member_page: '2', link_page: '1' });
    await waitFor(() => expect(m.callsTo('/network/status').some((c) => c.query.member_page === '2')).toBe(true));

    const linksCard = within(screen.getByLabelText(M.networkLinks));
    expect(linksCard.getAllByText('P01').length).toBeGreaterThan(0);
    await userEvent.click(linksCard.getByTitle('3'));
    await waitFor(() => expect(linksCard.getByText('P21')).toBeInTheDocument());
    expect(linksCard.queryByText('P01')).toBeNull();
    expect(m.callsTo('/network/info').at(-1)!.query).toMatchObject({ member_page: '2', link_page: '3' });
  });
});
