import { fmt, LIMITS, M, type RamItem } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { RamDialog } from './RamDialog';

const api = (extra: Parameters<typeof mockApi>[0] = {}) =>
  mockApi({
    '/ram/domain': ok({ domain: 'acme' }),
    '/ram_role/select': ok([
      { id: 7, name: '运维' },
      { id: 8, name: '审计' },
    ]),
    '/ram/create': ok({ id: 99 }, M.saved),
    '/ram/edit': ok(null, M.updated),
    ...extra,
  });

const record: RamItem = { id: 5, username: 'ops01', nickname: '小张', role_id: 8, role_name: '审计', create_time: '2026-01-01 10:00:00', login_time: null };

const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });

async function pickRole(name: string) {
  await userEvent.click(screen.getByRole('combobox', { name: M.ramRole }));
  await userEvent.click(await screen.findByTitle(name));
}

describe('RamDialog', () => {
  it('shows the form messages before any call', async () => {
    const m = api();
    renderWithProviders(<RamDialog open onClose={() => {}} />);
    await userEvent.click(okButton());
    await shows(M.ramRoleRequired);
    await shows(M.ramNicknameRequired);
    await shows(M.ramUsernameRequired);
    await shows(M.ramPasswordRequired);
    await userEvent.type(screen.getByPlaceholderText(M.ramUsernameRequired), 'bad@name');
    await userEvent.type(screen.getByPlaceholderText(M.ramPasswordRequired), '123');
    await shows(fmt(M.ramUsernameRule, { n: LIMITS.ramUsernameMax }));
    await shows(M.passwordLength);
    expect(m.callsTo('/ram/create')).toHaveLength(0);
  });

  it("shows the tenant's '@domain' after the username on create and creates the sub-account", async () => {
    const m = api();
    const onClose = vi.fn();
    renderWithProviders(<RamDialog open onClose={onClose} />);
    await shows('@acme');
    await pickRole('运维');
    await userEvent.type(screen.getByPlaceholderText(M.ramNicknameRequired), '小李');
    await userEvent.type(screen.getByPlaceholderText(M.ramUsernameRequired), 'li01');
    await userEvent.type(screen.getByPlaceholderText(M.ramPasswordRequired), 'pass1234');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/ram/create')).toHaveLength(1));
    expect(m.callsTo('/ram/create')[0]!.body).toEqual({ role_id: 7, nickname: '小李', username: 'li01', password: 'pass1234' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('stays open with the server’s message when the create is refused', async () => {
    const m = api({ '/ram/create': refused(M.ramUsernameTaken) });
    const onClose = vi.fn();
    renderWithProviders(<RamDialog open onClose={onClose} />);
    await pickRole('运维');
    await userEvent.type(screen.getByPlaceholderText(M.ramNicknameRequired), '小李');
    await userEvent.type(screen.getByPlaceholderText(M.ramUsernameRequired), 'li01');
    await userEvent.type(screen.getByPlaceholderText(M.ramPasswordRequired), 'pass1234');
    await userEvent.click(okButton());
    await shows(M.ramUsernameTaken);
    expect(m.callsTo('/ram/create')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('points to the roles page when the tenant has no role yet', async () => {
    api({ '/ram_role/select': ok([]) });
    renderWithProviders(<RamDialog open onClose={() => {}} />);
    await userEvent.click(screen.getByRole('combobox', { name: M.ramRole }));
    expect(await screen.findByRole('link', { name: M.roleNoRoles })).toHaveAttribute('href', '/ram/role');
  });

  it('edits without the username (shown, not editable) and with an optional password', async () => {
    const m = api();
    const onClose = vi.fn();
    renderWithProviders(<RamDialog open record={record} onClose={onClose} />);
    const username = screen.getByRole('textbox', { name: M.ramUsername });
    await waitFor(() => expect(username).toHaveValue('ops01@acme'));
    expect(username).toBeDisabled();
    expect(screen.getByPlaceholderText(M.ramNicknameRequired)).toHaveValue('小张');
    expect(screen.getByPlaceholderText(M.ramPasswordKeep)).toHaveValue('');

    await userEvent.type(screen.getByPlaceholderText(M.ramPasswordKeep), '12');
    await userEvent.click(okButton());
    await shows(M.passwordLength);
    expect(m.callsTo('/ram/edit')).toHaveLength(0);

    await userEvent.clear(screen.getByPlaceholderText(M.ramPasswordKeep));
    await pickRole('运维');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/ram/edit')).toHaveLength(1));
    expect(m.callsTo('/ram/edit')[0]!.body).toEqual({ id: 5, role_id: 7, nickname: '小张' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });
});
