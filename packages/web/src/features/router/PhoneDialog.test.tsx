import { CODE, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type MockAnswer } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { PhoneDialog } from './PhoneDialog';
import { member } from './testData';

const withPhone = member({ router_name: 'alice01', phone: '+86 13800000001', area_number: '86' });
const verifyHint = /请先验证原手机号码/;

function setup(m0: typeof withPhone, answer: MockAnswer<'/router/phone'>) {
  const m = mockApi({ '/router/phone': answer, '/verify/send_code': ok(null, M.codeSent) });
  const onClose = vi.fn();
  renderWithProviders(<PhoneDialog member={m0} onClose={onClose} />);
  return { m, onClose, u: userEvent.setup({ delay: null }) };
}

const button = (name: RegExp) => screen.getByRole('button', { name });
const phoneInput = () => screen.getByLabelText(M.memberPhoneLabel);

/** Several dialogs' worth of typing and clicking; antd in jsdom is slow on a loaded machine. */
const LONG = 60_000;

describe('PhoneDialog', () => {
  it('binds a first phone with an app_bind_phone code', async () => {
    const { m, onClose, u } = setup(member({ router_name: 'bob02' }), () => ok(null, M.bound));
    expect(screen.getByText(M.memberPhoneBindTitle)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /解\s*绑/ })).not.toBeInTheDocument();
    await u.click(button(/^确\s*定$/));
    await shows(M.bindPhoneRequired);
    await shows(M.bindCodeRequired);
    expect(m.calls).toHaveLength(0);
    await u.type(phoneInput(), '13900001111');
    await u.click(button(new RegExp(M.getCode)));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13900001111', verify_type: 'app_bind_phone' });
    await u.type(screen.getByLabelText('验证码'), '654321');
    await u.click(button(/^确\s*定$/));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/phone')[0]!.body).toEqual({ router_name: 'bob02', type: 1, area_code: '86', phone: '13900001111', code: '654321' });
    await shows(M.bound);
  }, LONG);

  it('on 401 enters verify mode keeping the old phone; the proof of the old phone repeats the bind', async () => {
    let proven = false;
    const { m, onClose, u } = setup(withPhone, (c) => {
      if (c.body!.type === 2) {
        proven = true;
        return ok(null, M.memberPhoneVerified);
      }
      return proven ? ok(null, M.bound) : refused(M.memberPhoneBoundVerify, CODE.flow401);
    });
    expect(screen.getByText(M.memberPhoneChangeTitle)).toBeInTheDocument();
    expect(phoneInput()).toHaveValue('13800000001');
    await u.clear(phoneInput());
    await u.type(phoneInput(), '13900002222');
    await u.type(screen.getByLabelText('验证码'), '111111');
    await u.click(button(/^确\s*定$/));

    await shows(verifyHint);
    await shows(M.memberPhoneBoundVerify);
    expect(phoneInput()).toHaveValue('13800000001');
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    // Proving the old phone is the phone change of spec 3 §5: an empty code is '验证码不能为空'.
    await u.click(button(/^验\s*证$/));
    await shows('验证码不能为空');
    expect(m.callsTo('/router/phone')).toHaveLength(1);
    await u.click(button(new RegExp(M.getCode)));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13800000001', verify_type: 'app_change_phone' });
    await u.type(screen.getByLabelText('验证码'), '222222');
    await u.click(button(/^验\s*证$/));

    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/phone').map((c) => c.body)).toEqual([
      { router_name: 'alice01', type: 1, area_code: '86', phone: '13900002222', code: '111111' },
      { router_name: 'alice01', type: 2, area_code: '86', phone: '13800000001', code: '222222' },
      { router_name: 'alice01', type: 1, area_code: '86', phone: '13900002222', code: '111111' },
    ]);
    await shows(M.bound);
  }, LONG);

  it('editing the phone leaves verify mode; leaving the field holding the old phone enters it', async () => {
    const { m, u } = setup(withPhone, () => refused(M.memberPhoneBoundVerify, CODE.flow401));
    expect(screen.queryByText(verifyHint)).not.toBeInTheDocument();
    // Leaving the field that still holds the old phone: only proving it is left to do.
    await u.click(phoneInput());
    await u.tab();
    await shows(verifyHint);
    expect(button(/^验\s*证$/)).toBeInTheDocument();

    // Editing the phone ends verify mode at once.
    await u.type(phoneInput(), '{Backspace}');
    await waitFor(() => expect(screen.queryByText(verifyHint)).not.toBeInTheDocument());
    // Typing the old phone back changes nothing until the field is left.
    await u.type(phoneInput(), '1');
    expect(screen.queryByText(verifyHint)).not.toBeInTheDocument();
    await u.tab();
    await shows(verifyHint);
    // The code of verify mode goes to the old phone.
    await u.click(button(new RegExp(M.getCode)));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toMatchObject({ send_value: '+86 13800000001', verify_type: 'app_change_phone' });
    // Leaving it holding another phone does not enter verify mode.
    await u.type(phoneInput(), '{Backspace}2');
    await u.tab();
    expect(screen.queryByText(verifyHint)).not.toBeInTheDocument();
    expect(button(/^确\s*定$/)).toBeInTheDocument();
  }, LONG);

  it('unbind sends an empty phone and code; 403 asks to prove the old phone first', async () => {
    let proven = false;
    const { m, onClose, u } = setup(withPhone, (c) => {
      if (c.body!.type === 2) {
        proven = true;
        return ok(null, M.memberPhoneVerified);
      }
      return proven ? ok(null, M.unbound) : refused(M.memberPhoneUnbindVerify, CODE.flow403);
    });
    await u.click(button(/解\s*绑/));
    await shows(verifyHint);
    expect(screen.queryByRole('button', { name: /解\s*绑/ })).not.toBeInTheDocument();
    await u.type(screen.getByLabelText('验证码'), '333333');
    await u.click(button(/^验\s*证$/));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/phone').map((c) => c.body)).toEqual([
      { router_name: 'alice01', type: 1, area_code: '', phone: '', code: '' },
      { router_name: 'alice01', type: 2, area_code: '86', phone: '13800000001', code: '333333' },
      { router_name: 'alice01', type: 1, area_code: '', phone: '', code: '' },
    ]);
  }, LONG);
});
