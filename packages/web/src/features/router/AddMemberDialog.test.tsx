import { CODE, M } from '@hublink/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused, type MockAnswer } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { AddMemberDialog } from './AddMemberDialog';

function setup(type: 1 | 2, answer: MockAnswer<'/router/add'> = () => ok(null, M.saved)) {
  const m = mockApi({ '/router/add': answer, '/verify/send_code': ok(null, M.codeSent) });
  const onClose = vi.fn();
  renderWithProviders(<AddMemberDialog type={type} open onClose={onClose} />);
  return { m, onClose, u: userEvent.setup({ delay: null }) };
}

const submit = (u: ReturnType<typeof userEvent.setup>) => u.click(screen.getByRole('button', { name: /确\s*定|OK/ }));

/** Several dialogs' worth of typing and clicking; antd in jsdom is slow on a loaded machine. */
const LONG = 60_000;

describe('AddMemberDialog', () => {
  it("shows the spec's messages before any call", async () => {
    const { m, u } = setup(2);
    await submit(u);
    await shows(M.memberAccountRequired);
    await shows(M.memberPasswordRequired);
    await u.type(screen.getByLabelText(M.memberAccountLabel), '张三');
    await u.type(screen.getByLabelText(M.memberPasswordLabel), '12345');
    await shows(M.memberAccountChars);
    await shows(M.memberPasswordLength);
    // A phone needs the member pattern and then a 6-character code.
    await u.type(screen.getByLabelText(M.memberPhoneLabel), '16600000000');
    await submit(u);
    await shows(M.mobileInvalid);
    await shows(M.bindCodeRequired);
    await u.type(screen.getByLabelText('验证码'), '123');
    await shows(M.codeLength);
    // Asking for a code with a bad phone sends nothing either.
    await u.click(screen.getByRole('button', { name: new RegExp(M.getCode) }));
    expect(m.calls).toHaveLength(0);
  }, LONG);

  it('shows a software member as an ordinary point: the position control is there, disabled (spec 3 §2.2)', async () => {
    const { m } = setup(2);
    const position = screen.getByRole('radiogroup', { name: M.memberPositionLabel });
    const [center, point] = [screen.getByRole('radio', { name: M.networkPositionCenter }), screen.getByRole('radio', { name: M.networkPositionPoint })];
    expect(position).toBeInTheDocument();
    expect(point).toBeChecked();
    expect(center).not.toBeChecked();
    expect(center).toBeDisabled();
    expect(point).toBeDisabled();
    expect(screen.getByText(M.memberPositionSoftwareHint)).toBeInTheDocument();
    expect(m.calls).toHaveLength(0);
  }, LONG);

  it('a hardware member is a device name and secret, without a phone', async () => {
    const { m, onClose, u } = setup(1);
    expect(screen.getByText(M.memberAddHardwareTitle)).toBeInTheDocument();
    expect(screen.queryByLabelText(M.memberPhoneLabel)).not.toBeInTheDocument();
    expect(screen.queryByRole('radiogroup', { name: M.memberPositionLabel })).not.toBeInTheDocument();
    await u.type(screen.getByLabelText(M.memberDeviceName), 'gw_01.bj');
    await u.type(screen.getByLabelText(M.memberDeviceSecret), 'secret123');
    await u.type(screen.getByLabelText(M.memberNoteLabel), '北京');
    await submit(u);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/add')[0]!.body).toEqual({ router_type: 1, username: 'gw_01.bj', password: 'secret123', note: '北京' });
  }, LONG);

  it('401 switches to binding mode; a new code and type 2 move the phone to the new member', async () => {
    const { m, onClose, u } = setup(2, (c) => (c.body!.type === 2 ? ok(null, M.saved) : refused(M.memberPhoneTaken, CODE.flow401)));
    await u.type(screen.getByLabelText(M.memberAccountLabel), 'carol03');
    await u.type(screen.getByLabelText(M.memberPasswordLabel), 'abc123456');
    await u.type(screen.getByLabelText(M.memberPhoneLabel), '13800000009');
    await u.click(screen.getByRole('button', { name: new RegExp(M.getCode) }));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(1));
    expect(m.callsTo('/verify/send_code')[0]!.body).toEqual({ send_type: 'phone', send_value: '+86 13800000009', verify_type: 'app_bind_phone' });
    await u.type(screen.getByLabelText('验证码'), '111111');
    await submit(u);
    await waitFor(() => expect(m.callsTo('/router/add')).toHaveLength(1));
    expect(m.callsTo('/router/add')[0]!.body).toEqual({
      router_type: 2,
      username: 'carol03',
      password: 'abc123456',
      note: '',
      area_code: '86',
      phone: '13800000009',
      code: '111111',
      type: 1,
    });
    // Binding mode: the server's message stays in the form, the code is cleared and can be sent again at once.
    await shows(M.memberBindModeHint);
    expect(screen.getAllByText(M.memberPhoneTaken).length).toBeGreaterThan(0);
    expect(screen.getByLabelText('验证码')).toHaveValue('');
    expect(onClose).not.toHaveBeenCalled();
    await u.click(screen.getByRole('button', { name: new RegExp(M.getCode) }));
    await waitFor(() => expect(m.callsTo('/verify/send_code')).toHaveLength(2));
    await u.type(screen.getByLabelText('验证码'), '222222');
    await submit(u);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(m.callsTo('/router/add')[1]!.body).toMatchObject({ phone: '13800000009', code: '222222', type: 2 });
  }, LONG);
});
