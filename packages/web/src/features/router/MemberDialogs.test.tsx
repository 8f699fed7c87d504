import { fmt, LIMITS, M, CM } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import { describe, expect, it, vi } from 'vitest';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { MemberDetailDialog } from './MemberDetailDialog';
import { NoteDialog } from './NoteDialog';
import { PasswordDialog } from './PasswordDialog';
import { SignDialog } from './SignDialog';
import { member } from './testData';

/** Several dialogs' worth of typing and clicking; antd in jsdom is slow on a loaded machine. */
const LONG = 60_000;
const u = () => userEvent.setup({ delay: null });
const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });

describe('member dialogs', () => {
  it('the remark input stops at 24 characters and saves trimmed', async () => {
    const m = mockApi({ '/router/note': ok(null, M.saved) });
    const onClose = vi.fn();
    renderWithProviders(<NoteDialog member={member({ note: '旧备注' })} onClose={onClose} />);
    const input = screen.getByLabelText(M.memberNoteLabel);
    expect(input).toHaveValue('旧备注');
    await u().clear(input);
    await u().type(input, ` ${'a'.repeat(30)}`);
    expect((input as HTMLInputElement).value).toHaveLength(LIMITS.memberNoteMax);
    await u().click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/note')[0]!.body).toEqual({ router_name: 'alice01', note: 'a'.repeat(LIMITS.memberNoteMax - 1) });
  }, LONG);

  it('the password must be 6 to 18 characters', async () => {
    const m = mockApi({ '/router/password': ok(null, M.memberPasswordChanged) });
    const onClose = vi.fn();
    renderWithProviders(<PasswordDialog member={member()} onClose={onClose} />);
    await u().click(okButton());
    await shows(M.memberPasswordRequired);
    await u().type(screen.getByLabelText(M.memberPasswordLabel), 'abc12');
    await shows(M.memberPasswordLength);
    expect(m.calls).toHaveLength(0);
    await u().type(screen.getByLabelText(M.memberPasswordLabel), '3');
    await u().click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/password')[0]!.body).toEqual({ router_name: 'alice01', password: 'abc123' });
  }, LONG);

  it('the suffix is 6-12 letters or digits; unchanged closes without a call; a new one refreshes the user', async () => {
    const m = mockApi({ '/account/edit_sign': ok(null, M.saved), '/account/info': ok({ ...mainUser, sign: 'newsign1' }) });
    const onClose = vi.fn();
    renderWithProviders(<SignDialog open current="abc123" onClose={onClose} />);
    const input = screen.getByLabelText(M.memberSignLabel);
    expect(input).toHaveValue('abc123');
    await u().click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(m.calls).toHaveLength(0);
    await u().clear(input);
    await u().type(input, 'ab-12');
    await shows(M.signInvalid);
    await u().clear(input);
    await shows(M.signRequired);
    await u().type(input, 'newsign1');
    await u().click(okButton());
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    expect(m.callsTo('/account/edit_sign')[0]!.body).toEqual({ sign: 'newsign1' });
    expect(m.callsTo('/account/info')).toHaveLength(1);
  }, LONG);

  it('member detail: login records by member, dial records by mode for the last days', async () => {
    const m = mockApi({
      '/logs/software_login': {
        code: 200,
        msg: 'success',
        count: 1,
        data: [{ router_name: 'alice01', ip: '1.2.3.4', os: 'android', version: '1.0', sys_brand: 'Xiaomi', sys_model: 'M2', sys_version: '14', create_time: '2026-01-02 10:00:00' }],
      },
      '/logs/online': { code: 200, msg: 'success', count: 0, data: [] },
    });
    renderWithProviders(<MemberDetailDialog member={member()} main edit={false} onClose={() => {}} />);
    await shows('Xiaomi');
    expect(m.callsTo('/logs/software_login')[0]!.query).toEqual({ page: '1', router_name: 'alice01' });
    await u().click(screen.getByRole('tab', { name: M.memberDialRecords }));
    await waitFor(() => expect(m.callsTo('/logs/online')).toHaveLength(1));
    const start = dayjs().subtract(LIMITS.logRangeDays, 'day').format('YYYY-MM-DD');
    expect(m.callsTo('/logs/online')[0]!.query).toEqual({
      page: '1',
      limit: String(LIMITS.pageSize),
      mode: 'p2p',
      router_name: 'alice01',
      start_time: start,
      end_time: dayjs().format('YYYY-MM-DD'),
    });
    const panel = screen.getByRole('tabpanel');
    expect(within(panel).getAllByText(M.memberDialPeer).length).toBeGreaterThan(0);
    await u().click(within(panel).getByText('POP'));
    await waitFor(() => expect(m.callsTo('/logs/online').at(-1)!.query.mode).toBe('pop'));
    await waitFor(() => expect(within(panel).getAllByText(M.memberDialPop).length).toBeGreaterThan(0));
    expect(within(panel).queryAllByText(M.memberDialPeer)).toHaveLength(0);
    await u().type(within(panel).getByPlaceholderText('请输入关键字搜索'), '10.0{Enter}');
    await waitFor(() => expect(m.callsTo('/logs/online').at(-1)!.query).toMatchObject({ mode: 'pop', search: '10.0', page: '1' }));
  }, LONG);

  it('member detail for an editor: the connection first, a profile per network, re-issue after a confirmation', async () => {
    const m = mockApi({
      '/router/profiles': { code: 200, msg: 'success', data: { login: 'alice01@corp1', phone: '13800138000', networks: [{ network_number: 'N1', network_name: '总部' }] } },
      '/router/reissue': { code: 200, msg: CM.profileReissued, data: null },
      '/logs/software_login': { code: 200, msg: 'success', count: 0, data: [] },
    });
    renderWithProviders(<MemberDetailDialog member={member()} main edit onClose={() => {}} />);
    expect(screen.getAllByRole('tab')[0]).toHaveTextContent(CM.profileTab);
    await shows('总部');
    expect(screen.getByText(fmt(CM.profileUsernameHint, { login: 'alice01@corp1', phone: '13800138000' }))).toBeInTheDocument();
    expect(screen.getByRole('button', { name: CM.profileDownload })).toBeInTheDocument();
    // Where the member gets its own profile.
    expect(screen.getByText(`${window.location.origin}/self`)).toBeInTheDocument();
    await u().click(screen.getByRole('button', { name: CM.profileReissue }));
    await shows(CM.profileReissueConfirm);
    await u().click(document.querySelector<HTMLElement>('.ant-popconfirm .ant-btn-primary')!);
    await waitFor(() => expect(m.callsTo('/router/reissue')).toHaveLength(1));
    expect(m.callsTo('/router/reissue')[0]!.body).toEqual({ router_name: 'alice01' });
  }, LONG);
});
