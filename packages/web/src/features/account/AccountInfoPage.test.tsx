import { M, type AccountData } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import AccountInfoPage from './AccountInfoPage';
import AccountPage from './AccountPage';

const blank: AccountData = {
  username: 'lin2024',
  nickname: '小林',
  birthday: '',
  industry: '',
  occupation: '',
  phone: '+86 13800000000',
  email: '',
  sign: 'abc12345',
  create_time: '2024-01-01 10:00:00',
};
const filled: AccountData = { ...blank, birthday: '1990-05-20', industry: 'I12', occupation: '工程师' };

function setup(page: React.ReactElement, route: string, account: AccountData) {
  session.setUser(mainUser);
  const m = mockApi({
    '/account/data': ok(account),
    '/account/info': ok(mainUser),
    '/account/edit_data': ok(null, M.saved),
    '/account/edit_sign': ok(null, M.modified),
  });
  const r = renderWithProviders(page, { route });
  return { m, r, u: userEvent.setup({ delay: null }) };
}

const save = () => screen.getByRole('button', { name: /^保\s*存$/ });

describe('AccountInfoPage', () => {
  it('shows every required message before any call', async () => {
    const { m, u } = setup(<AccountInfoPage />, '/account/info', blank);
    await u.clear(await screen.findByLabelText('昵称'));
    await u.clear(screen.getByLabelText('成员后缀'));
    await u.type(screen.getByLabelText('成员后缀'), 'ab-');
    await u.click(save());
    await shows(M.nicknameRequired);
    await shows(M.birthdayRequired);
    await shows(M.industryRequired);
    await shows(M.occupationRequired);
    await shows(M.signInvalid);
    expect(m.callsTo('/account/edit_data')).toHaveLength(0);
    expect(m.callsTo('/account/edit_sign')).toHaveLength(0);
  });

  it(
    'saves the profile and skips the suffix when unchanged; sends it when changed',
    async () => {
      const { m, u } = setup(<AccountInfoPage />, '/account/info', filled);
      await u.clear(await screen.findByLabelText('职业'));
      await u.type(screen.getByLabelText('职业'), '架构师');
      await u.click(save());
      await waitFor(() => expect(m.callsTo('/account/edit_data')).toHaveLength(1));
      expect(m.callsTo('/account/edit_data')[0]!.body).toEqual({ nickname: '小林', birthday: '1990-05-20', industry: 'I12', occupation: '架构师' });
      await shows(M.saved);
      expect(m.callsTo('/account/edit_sign')).toHaveLength(0);

      await u.clear(screen.getByLabelText('成员后缀'));
      await u.type(screen.getByLabelText('成员后缀'), 'newsign9');
      await u.click(save());
      await waitFor(() => expect(m.callsTo('/account/edit_sign')).toHaveLength(1));
      expect(m.callsTo('/account/edit_sign')[0]!.body).toEqual({ sign: 'newsign9' });
    },
  );

  it(
    'says 保存成功 once for a save that changes the suffix too, not 修改成功 as well',
    async () => {
      const { m, u } = setup(<AccountInfoPage />, '/account/info', filled);
      await u.clear(await screen.findByLabelText('成员后缀'));
      await u.type(screen.getByLabelText('成员后缀'), 'newsign9');
      await u.click(save());
      await waitFor(() => expect(m.callsTo('/account/edit_sign')).toHaveLength(1));
      // The page reads the account again once both calls have answered (and any toast was shown).
      await waitFor(() => expect(m.callsTo('/account/data').length).toBeGreaterThan(1));
      await shows(M.saved);
      expect(screen.getAllByText(M.saved)).toHaveLength(1);
      expect(screen.queryByText(M.modified)).not.toBeInTheDocument();
    },
  );

  it('titles one card 基本资料 (the form), with the password, phone and email cards under it', async () => {
    setup(<AccountInfoPage />, '/account/info', filled);
    await screen.findByText(M.loginPasswordTitle);
    expect(screen.getAllByText(M.accountProfile)).toHaveLength(1);
    for (const title of [M.accountPhone, M.accountEmail]) expect(screen.getAllByText(title)[0]).toBeInTheDocument();
  });

  it('shows the industry by its label', async () => {
    setup(<AccountInfoPage />, '/account/info', filled);
    await screen.findByLabelText('职业');
    expect(screen.getAllByText('互联网')[0]).toBeInTheDocument();
  });
});

describe('AccountPage', () => {
  it('shows four cards with set and not-set rows, and opens the binding dialogs', async () => {
    const { u } = setup(<AccountPage />, '/account', blank);
    await screen.findByText('登录密码');
    for (const title of ['基本资料', '手机号码']) expect(screen.getByText(title)).toBeInTheDocument();
    expect(screen.getByText('+86 13800000000')).toBeInTheDocument();
    // Birthday, industry, occupation and email are not set.
    expect(screen.getAllByText(M.notSet)).toHaveLength(4);
    await u.click(screen.getByRole('button', { name: '立即绑定' }));
    expect(await screen.findByText('绑定邮箱')).toBeInTheDocument();
  });

  it('links the password card to its wizard', async () => {
    const { r, u } = setup(<AccountPage />, '/account', filled);
    await screen.findByText('登录密码');
    await u.click(screen.getAllByRole('button', { name: /^修\s*改$/ })[0]!);
    await waitFor(() => expect(r.location()).toBe('/account/password'));
  });
});
