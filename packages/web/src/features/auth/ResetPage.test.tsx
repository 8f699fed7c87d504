import { LIMITS, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import ResetPage from './ResetPage';

const next = () => screen.getByRole('button', { name: '下一步' });
const captchaImage = () => screen.getByAltText('图形验证码');

function setup(found: { phone?: string; email?: string } = { phone: '+86 138****0000', email: 'l***@example.com' }) {
  let n = 0;
  const m = mockApi({
    '/verify/code': () => {
      n += 1;
      return ok({ content: `data:image/svg+xml;base64,img${n}`, uniqid: `u${n}` });
    },
    '/verify/find_password': ok(found),
    '/verify/find_password_code': ok(null, M.codeSent),
    '/verify/authentication': ok(null, '验证成功'),
    '/verify/reset_password': ok(null, M.resetSuccess),
  });
  const r = renderWithProviders(<ResetPage />, { route: '/reset' });
  return { m, r, u: userEvent.setup({ delay: null }) };
}

async function passStepOne(u: ReturnType<typeof userEvent.setup>) {
  await waitFor(() => expect(captchaImage()).toHaveAttribute('src', 'data:image/svg+xml;base64,img1'));
  await u.type(screen.getByLabelText('用户名'), ' lin2024 ');
  await u.type(screen.getByLabelText('验证码'), 'Ab12');
  await u.click(next());
  await screen.findByText('验证方式');
}

describe('ResetPage', () => {
  it('step 1 shows the spec messages before any call', async () => {
    const { m, u } = setup();
    await u.click(next());
    await shows(M.usernameRequired);
    await shows(M.captchaRequired);
    await u.type(screen.getByLabelText('验证码'), 'ab');
    await shows(M.captchaLength);
    expect(m.callsTo('/verify/find_password')).toHaveLength(0);
  });

  it('a failed step 1 clears the image code and refreshes the captcha', async () => {
    const { m, u } = setup();
    m.answer('/verify/find_password', refused(M.accountNotFound));
    await waitFor(() => expect(captchaImage()).toHaveAttribute('src', 'data:image/svg+xml;base64,img1'));
    await u.type(screen.getByLabelText('用户名'), 'nobody1');
    await u.type(screen.getByLabelText('验证码'), 'Ab12');
    await u.click(next());
    await waitFor(() => expect(captchaImage()).toHaveAttribute('src', 'data:image/svg+xml;base64,img2'));
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    expect(m.callsTo('/verify/find_password')[0]!.body).toEqual({ username: 'nobody1', img_code: 'Ab12', uniqid: 'u1' });
    await shows(M.accountNotFound);
    expect(screen.queryByText('验证方式')).not.toBeInTheDocument();
  });

  it('walks the three steps and returns to login', async () => {
    const { m, r, u } = setup();
    await passStepOne(u);
    expect(m.callsTo('/verify/find_password')[0]!.body).toEqual({ username: 'lin2024', img_code: 'Ab12', uniqid: 'u1' });

    // Step 2: only the returned channels, a code is required before verifying.
    expect(screen.getByLabelText('手机 +86 138****0000')).toBeChecked();
    expect(screen.getByLabelText('邮箱 l***@example.com')).toBeInTheDocument();
    await u.click(next());
    await shows(M.identityCodeRequired);
    expect(m.callsTo('/verify/authentication')).toHaveLength(0);

    await u.click(screen.getByLabelText('邮箱 l***@example.com'));
    await u.click(screen.getByRole('button', { name: M.getCode }));
    await waitFor(() => expect(m.callsTo('/verify/find_password_code')).toHaveLength(1));
    expect(m.callsTo('/verify/find_password_code')[0]!.body).toEqual({ uniqid: 'u1', send_type: 'email' });
    await shows(`${LIMITS.codeCooldownSeconds}秒后重试`);

    await u.type(screen.getByLabelText('验证码'), '654321');
    await u.click(next());
    await screen.findByLabelText('新密码');
    expect(m.callsTo('/verify/authentication')[0]!.body).toEqual({ uniqid: 'u1', send_type: 'email', code: '654321' });

    // Step 3: both required, 6-18, equal.
    const confirm = () => screen.getByRole('button', { name: '确认修改' });
    await u.click(confirm());
    await shows(M.newPasswordRequired);
    await shows(M.repeatPasswordRequired);
    await u.type(screen.getByLabelText('新密码'), '123');
    await shows(M.passwordLength);
    await u.type(screen.getByLabelText('新密码'), '4567');
    await u.type(screen.getByLabelText('重复密码'), '1234568');
    await u.click(confirm());
    await shows(M.passwordMismatch);
    expect(m.callsTo('/verify/reset_password')).toHaveLength(0);

    await u.clear(screen.getByLabelText('重复密码'));
    await u.type(screen.getByLabelText('重复密码'), '1234567');
    await u.click(confirm());
    expect(await screen.findByText(M.resetSuccess, { selector: '.ant-result-title' })).toBeInTheDocument();
    expect(m.callsTo('/verify/reset_password')[0]!.body).toEqual({ password: '1234567', reset_password: '1234567', uniqid: 'u1' });
    await waitFor(() => expect(r.location()).toBe('/login'));
  });

  it('offers only the channels the account has', async () => {
    const { u } = setup({ phone: '+86 138****0000' });
    await passStepOne(u);
    expect(screen.getByLabelText('手机 +86 138****0000')).toBeChecked();
    expect(screen.queryByText(/^邮箱/)).not.toBeInTheDocument();
  });

  it('stays on step 2 when the code is refused, and can start over', async () => {
    const { m, u } = setup();
    m.answer('/verify/authentication', refused(M.codeWrong));
    await passStepOne(u);
    await u.type(screen.getByLabelText('验证码'), '000000');
    await u.click(next());
    await shows(M.codeWrong);
    expect(screen.getByText('验证方式')).toBeInTheDocument();

    await u.click(screen.getByRole('button', { name: '上一步' }));
    await waitFor(() => expect(captchaImage()).toHaveAttribute('src', 'data:image/svg+xml;base64,img2'));
    expect(screen.getByLabelText('用户名')).toHaveValue('');
  });
});
