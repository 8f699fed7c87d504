import { M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok } from '../../test/mockApi';
import { shortNote } from '../../components/shortNote';
import { renderWithProviders, shows } from '../../test/render';
import { detail, member, quota } from '../../test/networkFixtures';
import NetworkEditPage from './NetworkEditPage';

const LONG_NOTE = '上海浦东新区张江高科技园区机房二楼';
const option = (router_name: string, router_type: number, note = '') => ({ router_name, note, router_type, online: 0 });
const candidates = ok({
  router: [option('R1', 1, '上海'), option('R2', 1), option('R3', 1, LONG_NOTE)],
  app: [option('A1', 2), option('A2', 2)],
});

function setup(over: { use?: number; route?: string; extra?: Parameters<typeof mockApi>[0] } = {}) {
  const m = mockApi({
    '/network/config': ok(quota({ network_router_use: over.use ?? 1, network_router_count: 3, network_center_count: 1 })),
    '/router/member': candidates,
    ...over.extra,
  });
  const r = renderWithProviders(<NetworkEditPage />, { route: over.route ?? '/network/create' });
  return { m, r };
}

// Found by aria-label: role queries walk every button of the three panels and are slow on a busy machine.
const add = (name: string, position: string) => userEvent.click(screen.getByLabelText(`${position} ${name}`));
const saveButton = () => screen.getByText(/保\s*存/).closest('button') as HTMLElement;
const selected = () => within(screen.getByLabelText(M.networkSelected));
const counter = (text: string) => waitFor(() => expect(screen.getByLabelText(M.networkUsage)).toHaveTextContent(text));

describe('NetworkEditPage', () => {
  it('shows a note on one line, cut, with the whole note on hover, among the candidates and the picked', async () => {
    setup();
    const inCandidates = await screen.findByText(shortNote(LONG_NOTE));
    expect(inCandidates).toHaveClass('hl-note-line');
    await userEvent.hover(inCandidates);
    expect(await screen.findByRole('tooltip')).toHaveTextContent(LONG_NOTE);
    await add('R3', M.networkPositionPoint);
    expect(selected().getByText(shortNote(LONG_NOTE))).toHaveClass('hl-note-line');
  });

  it('moves members in and out with the counter, and refuses a second center and never offers software as one', async () => {
    setup();
    await screen.findByLabelText(`${M.networkPositionPoint} R1`);
    await counter('已用 1 / 3');
    await add('R1', M.networkPositionCenter);
    await counter('已用 2 / 3');
    expect(selected().getByText('R1')).toBeInTheDocument();
    // Moved out of the candidates.
    expect(screen.queryByLabelText(`${M.networkPositionCenter} R1`)).not.toBeInTheDocument();

    await add('R2', M.networkPositionCenter);
    await shows('中心点仅支持1个');
    expect(selected().queryByText('R2')).not.toBeInTheDocument();

    // Software is never offered as a center (the detail page's add dialog follows the same rule).
    expect(screen.getByLabelText(`${M.networkPositionCenter} A1`)).toBeDisabled();
    expect(screen.getByLabelText(`${M.networkPositionCenter} R2`)).toBeEnabled();

    await add('A1', M.networkPositionPoint);
    await counter('已用 3 / 3');
    // Software members stay points: their position cannot be changed.
    expect(selected().getByLabelText(`${M.networkPosition} A1`)).toBeDisabled();

    await userEvent.click(selected().getByLabelText(`${M.networkRemove} R1`));
    await counter('已用 2 / 3');
    expect(screen.getByLabelText(`${M.networkPositionCenter} R1`)).toBeInTheDocument();
  });

  it('beyond the quota offers 立即升级 (which only warns) or 暂不升级', async () => {
    setup({ use: 2 });
    await screen.findByLabelText(`${M.networkPositionPoint} R1`);
    await add('R1', M.networkPositionPoint);
    await counter('已用 3 / 3');
    await add('R2', M.networkPositionPoint);
    await shows('最多支持3个成员，如需使用更多成员数请升级！');
    await userEvent.click(screen.getByText(M.networkUpgradeNow).closest('button')!);
    await shows(M.networkNoUpgrade);
    expect(selected().queryByText('R2')).not.toBeInTheDocument();
  });

  it('asks for members and a name before any call, then creates and opens the new network', async () => {
    const { m, r } = setup({ extra: { '/network/create': ok({ network_number: 'N9' }, '创建成功') } });
    await screen.findByLabelText(`${M.networkPositionPoint} R1`);
    await userEvent.click(saveButton());
    await shows(M.networkNameRequired);
    await userEvent.type(screen.getByPlaceholderText(M.networkNameRequired), '华东');
    await userEvent.click(saveButton());
    await shows(M.networkMembersRequired);
    expect(m.callsTo('/network/create')).toHaveLength(0);

    await add('R1', M.networkPositionCenter);
    await add('A2', M.networkPositionPoint);
    await userEvent.click(saveButton());
    await waitFor(() => expect(m.callsTo('/network/create')).toHaveLength(1));
    expect(m.callsTo('/network/create')[0]!.body).toEqual({ network_name: '华东', center: ['R1'], point: ['A2'] });
    await waitFor(() => expect(r.location()).toBe('/network/detail?network_number=N9'));
  });

  it('edit mode starts from the network; its own members never raise the counter', async () => {
    const network = detail({
      network_number: 'N1',
      network_name: '华东总部',
      member: [member({ router_name: 'R1', member_type: 'center' }), member({ router_name: 'A1', router_type: 2 })],
    });
    // The network's fields from its smallest page, every member from /network/member (not the whole info with its links).
    const { m } = setup({
      use: 3,
      route: '/network/edit?network_number=N1',
      extra: { '/network/info': ok({ ...network, member: network.member.slice(0, 1) }), '/network/member': ok(network.member), '/network/edit': ok(null, '保存成功') },
    });
    await waitFor(() => expect(screen.getByPlaceholderText(M.networkNameRequired)).toHaveValue('华东总部'));
    expect(m.callsTo('/network/info')[0]!.query).toEqual({ network_number: 'N1', member_page: '1', link_page: '1', page_size: '1' });
    expect(m.callsTo('/network/member')[0]!.query).toEqual({ network_number: 'N1' });
    await counter('已用 3 / 3');
    expect(selected().getByText('R1')).toBeInTheDocument();

    await userEvent.click(selected().getByLabelText(`${M.networkRemove} A1`));
    await counter('已用 3 / 3');
    await add('A1', M.networkPositionPoint);
    await counter('已用 3 / 3');
    await add('R2', M.networkPositionPoint);
    await shows('最多支持3个成员，如需使用更多成员数请升级！');

    await userEvent.click(screen.getByText(M.networkUpgradeLater).closest('button')!);
    await userEvent.click(saveButton());
    await waitFor(() => expect(m.callsTo('/network/edit')).toHaveLength(1));
    expect(m.callsTo('/network/edit')[0]!.body).toEqual({ network_number: 'N1', network_name: '华东总部', center: ['R1'], point: ['A1'] });
  });
});
