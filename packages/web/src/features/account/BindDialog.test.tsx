import { CODE, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { browser } from '../../api/client';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type ApiCall } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { BindDialog, type BindKind } from './BindDialog';

const OLD_PHONE = '+86 13800000000';
const OLD_EMAIL = 'old@example.com';

function setup(kind: BindKind, current: string, answer: (c: ApiCall) => ReturnType<typeof ok>) {
  const reload = vi.spyOn(browser, 'reload').mockImplementation(() => {});
  const m = mockApi({
    '/verify/send_code': ok(null, M.codeSent),
    '/account/info': ok(mainUser),
    [kind === 'phone' ? '/account/default_phone' : '/account/default_email']: answer,
  });
  const onClose = vi.fn();
  renderWithProviders(<BindDialog kind={kind} open current={current} onClose={onClose} />);
  return { m, reload, onClose, u: userEvent.setup({ delay: null }) };
}

const button = (name: RegExp) => screen.getByRole('button', { name });

describe('BindDialog', () => {
  it('shows the binding messages before any call', async () => {
    const { m, u } = setup('phone', '', () => ok(null, M.bound));
    await u.click(button(/^绑\s*定$/));
    await shows(M.bindPhoneRequired);
    await shows(M.bindCodeRequired);
    await u.type(screen.getByLabelText('手机号码'), '12345678901');
    await u.type(screen.getByLabelText('验证码'), '123');
    await u.click(button(/^绑\s*定$/));
    await shows(M.mobileInvalid);
    await shows(M.codeLength);
    // Asking for a code with a bad number sends nothing either.
    await u.click(button(new RegExp(M.getCode)));
    expect(m.calls).toHaveLength(0);
  });

  it('the email dialog asks for an email', async () => {
    const { m, u } = setup('email', '', () => ok(null, M.bound));
    await u.click(button(/^绑\s*定$/));
    await shows(M.bindEmailRequired);
    await u.type(screen.getByLabelText('邮箱'), 'nope@');
    await shows(M.emailInvalid);
    expect(m.calls).toHaveLength(0);
  });

  it('binds a first phone, then reloads after the binding delay', async () => {
    const { m, reload, onClose, u } = setup('phone', '', () => ok(null, M.bound));
    await u.type(screen.getByLabelText('手机号码'), '13900001111');
    await u.click(button(new RegExp(M.getCode)));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13900001111', verify_type: 'bind_phone' });
    await u.type(screen.getByLabelText('验证码'), '654321');
    await u.click(button(/^绑\s*定$/));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/account/default_phone')[0]!.body).toEqual({ type: 1, area_code: '86', phone: '13900001111', code: '654321' });
    await shows(M.bound);
    expect(reload).not.toHaveBeenCalled();
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    // The stored user message is refreshed first, so the reloaded page shows the new phone.
    expect(m.callsTo('/account/info')).toHaveLength(1);
  });

  it('on 401 enters verify mode keeping the old phone, then repeats the bind', async () => {
    let proven = false;
    const { m, onClose, u } = setup('phone', OLD_PHONE, (c) => {
      if (c.body!.type === 2) {
        proven = true;
        return ok(null, M.bindVerified);
      }
      return proven ? ok(null, M.bound) : refused(M.phoneBoundVerify, CODE.flow401);
    });
    await u.type(screen.getByLabelText('手机号码'), '13900002222');
    await u.type(screen.getByLabelText('验证码'), '111111');
    await u.click(button(/^绑\s*定$/));

    await screen.findByText('验证原手机号码');
    await shows(M.phoneBoundVerify);
    expect(screen.getByLabelText('原手机号码')).toHaveValue(OLD_PHONE);
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    await u.click(button(/^验\s*证$/));
    await shows(M.bindCodeRequired);
    expect(m.callsTo('/account/default_phone')).toHaveLength(1);

    await u.click(button(new RegExp(M.getCode)));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: OLD_PHONE, verify_type: 'verify_phone' });
    await u.type(screen.getByLabelText('验证码'), '222222');
    await u.click(button(/^验\s*证$/));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/account/default_phone').map((c) => c.body)).toEqual([
      { type: 1, area_code: '86', phone: '13900002222', code: '111111' },
      { type: 2, code: '222222' },
      { type: 1, area_code: '86', phone: '13900002222', code: '111111' },
    ]);
  });

  it('unbinding answered 403 enters verify mode, then unbinds with empty values', async () => {
    let proven = false;
    const { m, onClose, u } = setup('email', OLD_EMAIL, (c) => {
      if (c.body!.type === 2) {
        proven = true;
        return ok(null, M.bindVerified);
      }
      return proven ? ok(null, M.unbound) : refused(M.emailUnbindVerify, CODE.flow403);
    });
    await u.click(button(/^解\s*绑$/));
    await screen.findByText('验证原邮箱');
    expect(screen.getByLabelText('原邮箱')).toHaveValue(OLD_EMAIL);
    expect(screen.queryByRole('button', { name: /^解\s*绑$/ })).not.toBeInTheDocument();
    await u.type(screen.getByLabelText('验证码'), '333333');
    await u.click(button(/^验\s*证$/));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/account/default_email').map((c) => c.body)).toEqual([
      { type: 1, email: '', code: '' },
      { type: 2, code: '333333' },
      { type: 1, email: '', code: '' },
    ]);
  });

  it('stays in bind mode on any other refusal', async () => {
    const { onClose, u } = setup('email', '', () => refused(M.emailBoundElsewhere));
    await u.type(screen.getByLabelText('邮箱'), 'taken@example.com');
    await u.type(screen.getByLabelText('验证码'), '444444');
    await u.click(button(/^绑\s*定$/));
    await shows(M.emailBoundElsewhere);
    expect(screen.queryByText('验证原邮箱')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });
});
