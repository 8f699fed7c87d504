import { CODE, fmt, LIMITS, M, type ContactItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { ContactsDialog } from './ContactsDialog';

const contacts: ContactItem[] = Array.from({ length: 12 }, (_, i) => ({
  uuid: `00000000-0000-4000-8000-0000000000${String(i).padStart(2, '0')}`,
  name: `联系人${i}`,
  email: `c${i}@example.com`,
  email_verify: i === 0 ? 1 : 0,
}));

function setup(extra: Answers = {}, user = mainUser) {
  session.setUser(user);
  const m = mockApi({
    '/contacts/lists': (c) => {
      const page = Number(c.query.page);
      return { code: 200, msg: 'success', data: contacts.slice((page - 1) * 10, page * 10), count: contacts.length };
    },
    '/contacts/create': ok({ uuid: '00000000-0000-4000-8000-000000000099' }, M.saved),
    '/contacts/edit': ok(null, M.saved),
    '/contacts/delete': ok(null, M.deleted),
    '/contacts/send_validate_email': ok(null, M.contactMailSent),
    ...extra,
  });
  renderWithProviders(<ContactsDialog open onClose={() => undefined} />, { route: '/monitor/setting' });
  return m;
}

const rowOf = async (name: string) => (await screen.findByText(name)).closest('tr') as HTMLElement;
const OK_BUTTON = /确\s*定|OK/;

describe('ContactsDialog', () => {
  it('lists contacts 10 a page with their verification state, and pages', async () => {
    const m = setup();
    expect(within(await rowOf('联系人0')).getByText(M.contactVerified)).toBeInTheDocument();
    expect(within(await rowOf('联系人1')).getByText(M.contactUnverified)).toBeInTheDocument();
    // Verified contacts need no verification mail.
    expect(within(await rowOf('联系人0')).queryByRole('button', { name: M.contactSendVerify })).not.toBeInTheDocument();
    await shows(fmt(M.tableTotal, { n: 12 }));
    await userEvent.click(screen.getByTitle('2'));
    await shows('联系人11');
    expect(m.callsTo('/contacts/lists').at(-1)!.query).toMatchObject({ page: '2' });
  });

  it("adds a contact, showing the server's rules before any call", async () => {
    const m = setup();
    await rowOf('联系人0');
    await userEvent.click(screen.getByRole('button', { name: new RegExp(M.contactCreate) }));
    const form = (await screen.findAllByRole('dialog')).at(-1)!;
    await userEvent.click(within(form).getByRole('button', { name: OK_BUTTON }));
    await shows(M.contactNameRequired);
    await shows(M.contactEmailRequired);
    await userEvent.type(within(form).getByPlaceholderText(M.contactNameRequired), '值班');
    await userEvent.type(within(form).getByPlaceholderText(M.contactEmailRequired), 'not-mail');
    await userEvent.click(within(form).getByRole('button', { name: OK_BUTTON }));
    await shows(M.emailInvalid);
    expect(m.callsTo('/contacts/create')).toHaveLength(0);
    await userEvent.clear(within(form).getByPlaceholderText(M.contactEmailRequired));
    await userEvent.type(within(form).getByPlaceholderText(M.contactEmailRequired), 'duty@example.com');
    await userEvent.click(within(form).getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/contacts/create')).toHaveLength(1));
    expect(m.callsTo('/contacts/create')[0]!.body).toEqual({ name: '值班', email: 'duty@example.com' });
    // The list reloads.
    await waitFor(() => expect(m.callsTo('/contacts/lists').length).toBeGreaterThan(1));
  });

  it('edits a contact with its values filled in', async () => {
    const m = setup();
    await userEvent.click(within(await rowOf('联系人2')).getByRole('button', { name: M.edit }));
    const form = (await screen.findAllByRole('dialog')).at(-1)!;
    const name = within(form).getByPlaceholderText(M.contactNameRequired);
    await waitFor(() => expect(name).toHaveValue('联系人2'));
    await userEvent.clear(name);
    await userEvent.type(name, '改名');
    await userEvent.click(within(form).getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/contacts/edit')).toHaveLength(1));
    expect(m.callsTo('/contacts/edit')[0]!.body).toEqual({ uuid: contacts[2]!.uuid, name: '改名', email: 'c2@example.com' });
  });

  it('sends a verification mail after confirmation and counts down before the next; a refusal ends the countdown', async () => {
    const m = setup();
    await userEvent.click(within(await rowOf('联系人1')).getByRole('button', { name: M.contactSendVerify }));
    await shows(M.contactSendConfirm);
    expect(m.callsTo('/contacts/send_validate_email')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/contacts/send_validate_email')).toHaveLength(1));
    expect(m.callsTo('/contacts/send_validate_email')[0]!.body).toEqual({ uuid: contacts[1]!.uuid });
    const counting = within(await rowOf('联系人1')).getByRole('button', { name: /秒后重发/ });
    expect(counting).toBeDisabled();
    expect(Number(/(\d+)/.exec(counting.textContent ?? '')![1])).toBeLessThanOrEqual(LIMITS.contactEmailCooldownSeconds);

    m.answer('/contacts/send_validate_email', refused(fmt(M.contactMailTooSoon, { n: 30 }), CODE.tooMany));
    await userEvent.click(within(await rowOf('联系人3')).getByRole('button', { name: M.contactSendVerify }));
    await userEvent.click((await screen.findAllByRole('button', { name: OK_BUTTON })).at(-1)!);
    await shows(fmt(M.contactMailTooSoon, { n: 30 }));
    await waitFor(() => expect(within(screen.getByText('联系人3').closest('tr')!).getByRole('button', { name: M.contactSendVerify })).toBeEnabled());
  });

  it("deletes after '是否确定删除?'", async () => {
    const m = setup();
    await userEvent.click(within(await rowOf('联系人4')).getByRole('button', { name: M.contactDelete }));
    await shows(M.confirmDelete);
    expect(m.callsTo('/contacts/delete')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/contacts/delete')).toHaveLength(1));
    expect(m.callsTo('/contacts/delete')[0]!.body).toEqual({ uuid: contacts[4]!.uuid });
  });

  it('shows a role without the edit right the list only', async () => {
    const role = { 'easylink.router': { create: 1, edit: 1, delete: 1 }, 'easylink.network': { create: 1, edit: 1, delete: 1, network: [] }, monitor: { view: 1, create: 1, edit: 0, delete: 1 } } as const;
    setup({}, { ...mainUser, ram: 1, role: { ...role, 'easylink.network': { ...role['easylink.network'], network: [] } } });
    await rowOf('联系人1');
    expect(screen.queryByRole('button', { name: new RegExp(M.contactCreate) })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.contactSendVerify })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.contactDelete })).not.toBeInTheDocument();
  });
});
