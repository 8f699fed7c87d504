import { fmt, LIMITS, M, type RoleAuth } from '@hublink/contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { session } from '../../api/session';
import { mainUser, ramUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { member } from '../../test/networkFixtures';
import { MemberNoteCell } from './NoteDialog';

const R1 = member({ router_name: 'R1', note: '上海总部' });

function setup(user = mainUser) {
  session.setUser(user);
  const m = mockApi({ '/router/note': ok(null, M.saved) });
  renderWithProviders(<MemberNoteCell member={R1} />, { route: '/network/detail?network_number=N1' });
  return m;
}

const role = (edit: 0 | 1): RoleAuth => ({
  'easylink.router': { create: 0, edit, delete: 0 },
  'easylink.network': { create: 0, edit: 0, delete: 0, network: [] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0 },
});

describe('the note dialog of the network detail (spec 2 §2)', () => {
  it('edits a member’s note from its row: at most 24 characters, the same text sends nothing', async () => {
    const m = setup();
    await userEvent.click(screen.getByRole('button', { name: fmt(M.networkNoteEdit, { name: 'R1' }) }));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByRole('textbox', { name: M.memberNoteLabel });
    expect(input).toHaveValue('上海总部');
    expect(input).toHaveAttribute('maxlength', String(LIMITS.memberNoteMax));
    await userEvent.click(within(dialog).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(m.callsTo('/router/note')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: fmt(M.networkNoteEdit, { name: 'R1' }) }));
    const again = await screen.findByRole('dialog');
    const field = within(again).getByRole('textbox', { name: M.memberNoteLabel });
    await userEvent.clear(field);
    await userEvent.type(field, ' 北京分部 ');
    await userEvent.click(within(again).getByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(m.callsTo('/router/note')[0]!.body).toEqual({ router_name: 'R1', note: '北京分部' }));
    await shows(M.saved);
  });

  it('offers no edit to a sub-account without the member edit right', async () => {
    setup({ ...ramUser, role: role(0) });
    expect(screen.getByText('上海总部')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: fmt(M.networkNoteEdit, { name: 'R1' }) })).not.toBeInTheDocument();
  });

  describe('loading', () => {
    afterEach(() => void vi.useRealTimers());

    it('clears after 60 s as the networks area says (spec 2 §4), not after 10 s', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'], shouldAdvanceTime: true });
      const m = setup();
      // The server never answers.
      m.answer('/router/note', () => new Promise(() => undefined));
      await userEvent.click(screen.getByRole('button', { name: fmt(M.networkNoteEdit, { name: 'R1' }) }));
      const dialog = await screen.findByRole('dialog');
      await userEvent.type(within(dialog).getByRole('textbox', { name: M.memberNoteLabel }), '一');
      const ok = within(dialog).getByRole('button', { name: /确\s*定|OK/ });
      await userEvent.click(ok);
      await waitFor(() => expect(ok).toHaveClass('ant-btn-loading'));
      await act(() => vi.advanceTimersByTimeAsync(LIMITS.submitGuardMs + 1000));
      expect(ok).toHaveClass('ant-btn-loading');
      await act(() => vi.advanceTimersByTimeAsync(LIMITS.networkLoadingClearMs - LIMITS.submitGuardMs));
      await waitFor(() => expect(ok).not.toHaveClass('ant-btn-loading'));
    });
  });
});
