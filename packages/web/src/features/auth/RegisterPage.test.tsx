import { LIMITS, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import RegisterPage from './RegisterPage';

const registerButton = () => screen.getByRole('button', { name: /注\s*册/ });
const codeButton = () => screen.getByRole('button', { name: /获取验证码|秒后重试/ });

/** Focuses the field and pastes the value: one change, as fast as antd allows. */
async function enter(u: ReturnType<typeof userEvent.setup>, label: string, value: string) {
  await u.click(screen.getByLabelText(label));
  await u.paste(value);
}

function setup() {
  const m = mockApi({ '/verify/register': ok(null, M.codeSent), '/account/register': ok(null, M.registerSuccess) });
  const r = renderWithProviders(<RegisterPage />, { route: '/register' });
  return { m, r, u: userEvent.setup({ delay: null }) };
}

describe('RegisterPage', () => {
  it('shows every required message and the terms message before any call', async () => {
    const { m, u } = setup();
    await u.click(registerButton());
    for (const text of [M.nicknameRequired, M.usernameRequired, M.passwordRequired, M.confirmPasswordRequired, M.phoneRequired, M.codeRequired, M.termsRequired]) {
      await shows(text);
    }
    expect(m.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('shows the length, character and mismatch messages', async () => {
    const { m, u } = setup();
    await enter(u, '昵称', 'a');
    await enter(u, '用户名', 'abc');
    await enter(u, '密码', '123');
    await enter(u, '确认密码', '1234567');
    await enter(u, '手机号码', '12');
    await enter(u, '验证码', '123');
    await u.click(registerButton());
    for (const text of [M.nicknameLength, M.usernameLength, M.passwordLength, M.passwordMismatch, M.phoneMin, M.codeMin]) {
      await shows(text);
    }

    await u.clear(screen.getByLabelText('昵称'));
    await enter(u, '昵称', '小林!!');
    await u.clear(screen.getByLabelText('用户名'));
    await enter(u, '用户名', 'lin_2024');
    await shows(M.nicknameChars);
    await shows(M.usernameChars);
    expect(m.calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('needs a phone before sending a code, then sends it and counts down', async () => {
    const { m, u } = setup();
    await u.click(codeButton());
    await shows(M.phoneRequired);
    expect(codeButton()).toHaveTextContent(M.getCode);
    expect(m.callsTo('/verify/register')).toHaveLength(0);

    await enter(u, '手机号码', '13800000000');
    await u.click(codeButton());
    await waitFor(() => expect(m.callsTo('/verify/register')).toHaveLength(1));
    expect(m.callsTo('/verify/register')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13800000000' });
    expect(codeButton()).toHaveTextContent(`${LIMITS.codeCooldownSeconds}秒后重试`);
    expect(codeButton()).toBeDisabled();
  });

  it('resets the countdown when the code was not sent', async () => {
    const { m, u } = setup();
    m.answer('/verify/register', refused(M.phoneTaken));
    await enter(u, '手机号码', '13800000000');
    await u.click(codeButton());
    await waitFor(() => expect(m.callsTo('/verify/register')).toHaveLength(1));
    await waitFor(() => expect(codeButton()).toHaveTextContent(M.getCode));
    expect(codeButton()).toBeEnabled();
  });

  it('email tab: needs a non-empty valid email to send a code', async () => {
    const { m, u } = setup();
    await u.click(screen.getByRole('tab', { name: '邮箱注册' }));
    await u.click(codeButton());
    await shows(M.emailRequired);
    await enter(u, '邮箱', 'not-an-email');
    await u.click(codeButton());
    await shows(M.emailInvalid);
    expect(m.callsTo('/verify/register')).toHaveLength(0);

    await u.clear(screen.getByLabelText('邮箱'));
    await enter(u, '邮箱', 'lin@example.com');
    await u.click(codeButton());
    await waitFor(() => expect(m.callsTo('/verify/register')).toHaveLength(1));
    expect(m.callsTo('/verify/register')[0]!.body).toEqual({ send_type: 'email', send_value: 'lin@example.com' });
  });

  it('registers, hides the form, shows success and goes to /login after the delay', async () => {
    const { m, r, u } = setup();
    await enter(u, '昵称', '小林');
    await enter(u, '用户名', 'lin2024');
    await enter(u, '密码', 'secret123');
    await enter(u, '确认密码', 'secret123');
    await u.click(screen.getByLabelText('国家/地区代码'));
    await u.click(await screen.findByText('中国香港 +852'));
    await enter(u, '手机号码', '51234567');
    await enter(u, '验证码', '123456');
    await u.click(screen.getByRole('checkbox'));
    // The card keeps one fixed width from the form to the success screen (not its content's).
    const cardWidth = () => (document.querySelector('.ant-card') as HTMLElement).style.width;
    const formWidth = cardWidth();
    expect(formWidth).toMatch(/^\d+px$/);
    await u.click(registerButton());

    expect(await screen.findByText(M.registerSuccess, { selector: '.ant-result-title' })).toBeInTheDocument();
    expect(cardWidth()).toBe(formWidth);
    expect(m.callsTo('/account/register')[0]!.body).toEqual({
      nickname: '小林',
      username: 'lin2024',
      password: 'secret123',
      newPassword: 'secret123',
      code: '123456',
      type: 'phone',
      verify: '+852 51234567',
    });
    expect(screen.queryByLabelText('用户名')).not.toBeInTheDocument();
    expect(r.location()).toBe('/register');
    await waitFor(() => expect(r.location()).toBe('/login'));
  });

  it('stays on the form when the server refuses', async () => {
    const { m, u } = setup();
    m.answer('/account/register', refused(M.usernameTaken));
    await u.click(screen.getByRole('tab', { name: '邮箱注册' }));
    await enter(u, '昵称', '小林');
    await enter(u, '用户名', 'lin2024');
    await enter(u, '密码', 'secret123');
    await enter(u, '确认密码', 'secret123');
    await enter(u, '邮箱', 'lin@example.com');
    await enter(u, '验证码', '123456');
    await u.click(screen.getByRole('checkbox'));
    await u.click(registerButton());
    await waitFor(() => expect(m.callsTo('/account/register')).toHaveLength(1));
    expect(m.callsTo('/account/register')[0]!.body).toMatchObject({ type: 'email', verify: 'lin@example.com' });
    await shows(M.usernameTaken);
    expect(screen.getByLabelText('用户名')).toBeInTheDocument();
  });

  it('links to the terms and privacy policy', () => {
    setup();
    expect(screen.getByRole('link', { name: '《服务条款》' })).toHaveAttribute('href', '/clause');
    expect(screen.getByRole('link', { name: '《隐私政策》' })).toHaveAttribute('href', '/privacy');
  });
});
