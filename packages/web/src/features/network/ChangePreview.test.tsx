import { CODE, M, type PreviewAnswer } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { detail } from '../../test/networkFixtures';
import { renderWithProviders } from '../../test/render';
import { CiphersDialog } from './CiphersDialog';

const everyMember: PreviewAnswer = {
  members: [
    { router_name: 'c1', change: 'changed' },
    { router_name: 'p1', change: 'changed' },
  ],
  member_count: 2,
  reach: [],
  reach_count: 0,
  viewer: null,
};

describe('ChangePreview (in the ciphers dialog)', () => {
  it('asks nothing while the form is unchanged, then shows the members a change reconfigures', async () => {
    const m = mockApi({ '/network/preview': ok(everyMember) });
    renderWithProviders(<CiphersDialog detail={detail()} open onClose={() => undefined} />);
    expect(await screen.findByLabelText(M.networkCiphersDefault)).toBeChecked();
    expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull();
    await userEvent.click(screen.getByLabelText(M.netSetCiphersSm));
    expect(await screen.findByText('2 个成员的配置将改变')).toBeInTheDocument();
    expect(screen.getByText(M.previewReachSame)).toBeInTheDocument();
    expect(m.callsTo('/network/preview')[0]!.body).toEqual({ network_number: 'N1', path: '/network/ciphers', body: { ncp_ciphers: 'sm' } });
    // Back to the saved value: the preview goes.
    await userEvent.click(screen.getByLabelText(M.networkCiphersDefault));
    await waitFor(() => expect(screen.queryByRole('region', { name: M.previewTitle })).toBeNull());
  });

  it('lists lost pairs with where they stop, and warns when the caller is cut off', async () => {
    const cut: PreviewAnswer = {
      members: [{ router_name: 'p1', change: 'changed' }],
      member_count: 1,
      reach: [{ state: '', from: 'c1', to: { member: 'p1', prefix: '10.4.0.0/24', internet: false, denied: false }, gained: false, path: [], stop: { at: 'c1', why: 'no-route', back: false } }],
      reach_count: 1,
      viewer: { router_name: 'p1', cut: true },
    };
    mockApi({ '/network/preview': ok(cut) });
    renderWithProviders(<CiphersDialog detail={detail()} open onClose={() => undefined} />);
    await userEvent.click(await screen.findByLabelText(M.netSetCiphersSm));
    expect(await screen.findByText('此更改将切断您当前所经过的成员 p1，保存后您可能无法再访问控制台')).toBeInTheDocument();
    expect(screen.getByText('1 条连通将中断')).toBeInTheDocument();
    expect(screen.getByText('c1 → p1 10.4.0.0/24')).toBeInTheDocument();
    expect(screen.getByText('在 c1 中断（无路由）')).toBeInTheDocument();
  });

  it('asks again while the server is still comparing the last change', async () => {
    let asked = 0;
    const m = mockApi({ '/network/preview': () => (++asked === 1 ? refused(M.previewBusy, CODE.tooMany) : ok(everyMember)) });
    renderWithProviders(<CiphersDialog detail={detail()} open onClose={() => undefined} />);
    await userEvent.click(await screen.findByLabelText(M.netSetCiphersSm));
    expect(await screen.findByText('2 个成员的配置将改变', {}, { timeout: 5000 })).toBeInTheDocument();
    expect(m.callsTo('/network/preview')).toHaveLength(2);
  });
});
