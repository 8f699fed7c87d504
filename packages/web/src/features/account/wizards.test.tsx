import { M, type UserMessage } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import EmailPage from './EmailPage';
import PasswordPage from './PasswordPage';
import PhonePage from './PhonePage';

const exact = (text: string) => new RegExp(`^${text.split('').join('\\s*')}$`);
const button = (text: string) => screen.getByRole('button', { name: exact(text) });

function setup(page: React.ReactElement, route: string, user: UserMessage = mainUser, answers: Parameters<typeof mockApi>[0] = {}) {
  session.setUser(user);
  const m = mockApi({
    '/verify/send_code': ok(null, M.codeSent),
    '/verify/verify': ok(null, '验证成功'),
    '/account/info': ok(user),
    ...answers,
  });
  const r = renderWithProviders(page, { route });
  return { m, r, u: userEvent.setup({ delay: null }) };
}

async function passVerify(u: ReturnType<typeof userEvent.setup>) {
  await u.type(screen.getByLabelText('验证码'), '123456');
  await u.click(button('下一步'));
}

describe('the verification step', () => {
  it('offers the phone always and the email only when bound; shows the code messages before any call', async () => {
    const { m, u } = setup(<PasswordPage />, '/account/password', { ...mainUser, user_email: '' });
    expect(screen.getByLabelText(`手机 ${mainUser.user_phone}`)).toBeChecked();
    expect(screen.queryByText(/^邮箱/)).not.toBeInTheDocument();
    expect(screen.getByText(M.codeArrivalHint)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '提交工单' })).toHaveAttribute('href', '/ticket/lists');
    await u.click(button('下一步'));
    await shows(M.codeRequired);
    await u.type(screen.getByLabelText('验证码'), '123');
    await shows(M.codeLength);
    expect(m.callsTo('/verify/verify')).toHaveLength(0);
  });

  it('sends the code to the chosen channel and verifies with its verify_type', async () => {
    const { m, u } = setup(<EmailPage />, '/account/email');
    await u.click(screen.getByLabelText(`邮箱 ${mainUser.user_email}`));
    await u.click(screen.getByRole('button', { name: M.getCode }));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'email', send_value: mainUser.user_email, verify_type: 'verify_email' });
    await passVerify(u);
    await screen.findByLabelText('新邮箱');
    expect(m.callsTo('/verify/verify')[0]!.body).toEqual({ send_type: 'email', verify_type: 'verify_email', code: '123456' });
  });

  it('offers an unbound phone disabled and starts on the email', async () => {
    setup(<PhonePage />, '/account/phone', { ...mainUser, user_phone: '' });
    expect(screen.getByLabelText(`手机（${M.notBound}）`)).toBeDisabled();
    expect(screen.getByLabelText(`邮箱 ${mainUser.user_email}`)).toBeChecked();
  });

  it('return leaves for /account', async () => {
    const { r, u } = setup(<PhonePage />, '/account/phone');
    await u.click(button('返回'));
    await waitFor(() => expect(r.location()).toBe('/account'));
  });

  it('says a phone or email must be bound first for a password change', async () => {
    setup(<PasswordPage />, '/account/password', { ...mainUser, user_phone: '', user_email: '' });
    expect(screen.getByText(M.bindContactFirst)).toBeInTheDocument();
    expect(screen.queryByLabelText('验证码')).not.toBeInTheDocument();
  });
});

describe('PasswordPage', () => {
  it(
    'checks the new passwords before the call, then changes it',
    async () => {
      const { m, u } = setup(<PasswordPage />, '/account/password', mainUser, { '/account/edit_password': ok(null, M.modified) });
      await passVerify(u);
      await screen.findByLabelText('新密码');
      await u.click(button('确认修改'));
      await shows(M.newPasswordRequired);
      await shows(M.repeatPasswordRequired);
      await u.type(screen.getByLabelText('新密码'), '12345');
      await shows(M.passwordLengthShort);
      await u.clear(screen.getByLabelText('新密码'));
      await u.type(screen.getByLabelText('新密码'), 'newpass99');
      await u.type(screen.getByLabelText('重复密码'), 'newpass98');
      await u.click(button('确认修改'));
      await shows(M.passwordMismatch);
      expect(m.callsTo('/account/edit_password')).toHaveLength(0);

      await u.clear(screen.getByLabelText('重复密码'));
      await u.type(screen.getByLabelText('重复密码'), 'newpass99');
      await u.click(button('确认修改'));
      await screen.findByText('密码修改成功');
      expect(m.callsTo('/account/edit_password')[0]!.body).toEqual({ new_password: 'newpass99', reset_password: 'newpass99' });
    },
  );

  it('goes back to the verification step when the proof has run out', async () => {
    const { u } = setup(<PasswordPage />, '/account/password', mainUser, { '/account/edit_password': refused(M.recoveryNotVerified) });
    await passVerify(u);
    await u.type(await screen.findByLabelText('新密码'), 'newpass99');
    await u.type(screen.getByLabelText('重复密码'), 'newpass99');
    await u.click(button('确认修改'));
    await screen.findByText('验证方式');
  });
});

describe('PhonePage', () => {
  it(
    'checks the new phone before any call, changes it, and back from success starts over',
    async () => {
      const { m, u } = setup(<PhonePage />, '/account/phone', mainUser, { '/account/edit_phone': ok(null, M.modified) });
      await passVerify(u);
      await screen.findByLabelText('手机号码');
      await u.click(button('确认修改'));
      await shows(M.phoneRequired);
      await shows(M.codeRequired);
      await u.type(screen.getByLabelText('手机号码'), '12000000000');
      await u.click(screen.getByRole('button', { name: M.getCode }));
      await shows(M.mobileInvalid);
      expect(m.callsTo('/verify/send_code')).toHaveLength(0);
      expect(m.callsTo('/account/edit_phone')).toHaveLength(0);

      await u.clear(screen.getByLabelText('手机号码'));
      await u.type(screen.getByLabelText('手机号码'), '13900003333');
      await u.click(screen.getByRole('button', { name: M.getCode }));
      await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
      expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13900003333', verify_type: 'edit_phone' });
      await u.type(screen.getByLabelText('验证码'), '777777');
      await u.click(button('确认修改'));
      await screen.findByText('手机号码修改成功');
      expect(m.callsTo('/account/edit_phone')[0]!.body).toEqual({ area_code: '86', phone: '13900003333', code: '777777' });

      await u.click(button('返回'));
      await screen.findByText('验证方式');
      await passVerify(u);
      expect(await screen.findByLabelText('手机号码')).toHaveValue('');
    },
  );
});

describe('EmailPage', () => {
  it(
    'checks the email before any call; back from success returns to the new-email step',
    async () => {
      const { m, r, u } = setup(<EmailPage />, '/account/email', mainUser, { '/account/edit_email': ok(null, M.modified) });
      await passVerify(u);
      await screen.findByLabelText('新邮箱');
      await u.click(button('确认修改'));
      await shows(M.emailRequired);
      await u.type(screen.getByLabelText('新邮箱'), 'bad');
      await shows(M.emailInvalid);
      expect(m.callsTo('/account/edit_email')).toHaveLength(0);
      await u.clear(screen.getByLabelText('新邮箱'));
      await u.type(screen.getByLabelText('新邮箱'), 'new@example.com');
      await u.type(screen.getByLabelText('验证码'), '888888');
      await u.click(button('确认修改'));
      await screen.findByText('邮箱修改成功');
      expect(m.callsTo('/account/edit_email')[0]!.body).toEqual({ email: 'new@example.com', code: '888888' });
      await u.click(button('返回'));
      await screen.findByLabelText('新邮箱');
      await u.click(button('返回'));
      await waitFor(() => expect(r.location()).toBe('/account'));
    },
  );
});
