import { M, SECRET_MASK, type WebhookItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { HookDialog } from './HookDialog';

function setup(record?: WebhookItem, extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({ '/webhooks/create': ok({ uuid: '0b6a3f8e-3f0c-4a59-9d43-1c1d2e3f4a5b' }, M.webhookSaved), '/webhooks/edit': ok(null, M.webhookSaved), ...extra });
  let closed = 0;
  renderWithProviders(<HookDialog open record={record} onClose={() => closed++} />, { route: '/monitor/setting' });
  return { m, closed: () => closed };
}

const dialog = () => screen.getByRole('dialog');
const OK_BUTTON = /确\s*定|OK/;
const submit = () => userEvent.click(within(dialog()).getByRole('button', { name: OK_BUTTON }));
/** Types into a tags box and presses Enter: one tag. */
const tag = async (label: string, value: string) => {
  await userEvent.type(within(dialog()).getByRole('combobox', { name: label }), `${value}{enter}`);
};

const stored: WebhookItem = {
  uuid: '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
  name: '飞书告警',
  type: 'feishu',
  url: 'https://open.feishu.cn/open-apis/bot/v2/hook/x',
  secret: SECRET_MASK,
  kinds: ['service_expired'],
  at_mobiles: [],
  at_user_ids: ['ou_abc'],
  at_all: 1,
  is_default: 0,
  last_status: '',
  last_attempts: 0,
  last_time: '',
  last_error: '',
};

describe('HookDialog', () => {
  it('adds a DingTalk webhook with every kind ticked and mentions, refusing a bad mobile before any call', async () => {
    const { m, closed } = setup();
    await submit();
    await shows(M.webhookNameRequired);
    await shows(M.webhookUrlRequired);
    await userEvent.type(within(dialog()).getByPlaceholderText(M.webhookNamePlaceholder), '运维值班群');
    await userEvent.type(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder), 'https://oapi.dingtalk.com/robot/send?access_token=t');
    await tag(M.webhookAtMobiles, '1380013800');
    await submit();
    await shows('手机号格式不正确：1380013800');
    expect(m.callsTo('/webhooks/create')).toHaveLength(0);

    // Remove the bad one (Backspace in the box), add a good one and a user id, mention everyone.
    await userEvent.type(within(dialog()).getByRole('combobox', { name: M.webhookAtMobiles }), '{backspace}');
    await tag(M.webhookAtMobiles, '13800138000');
    await tag(M.webhookAtUserIds, 'manager01');
    await userEvent.click(within(dialog()).getByRole('switch', { name: M.webhookAtAll }));
    await submit();
    await waitFor(() => expect(m.callsTo('/webhooks/create')).toHaveLength(1));
    expect(m.callsTo('/webhooks/create')[0]!.body).toEqual({
      name: '运维值班群',
      type: 'dingtalk',
      url: 'https://oapi.dingtalk.com/robot/send?access_token=t',
      secret: '',
      kinds: ['router_online', 'router_offline', 'service_expired', 'pop_connect'],
      at_mobiles: ['13800138000'],
      at_user_ids: ['manager01'],
      at_all: 1,
    });
    await waitFor(() => expect(closed()).toBe(1));
  });

  it('edits a Feishu webhook: no mobiles to mention, the mask standing for the secret, a taken name said under the name', async () => {
    const { m, closed } = setup(stored, { '/webhooks/edit': refused(M.webhookNameTaken) });
    await waitFor(() => expect(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder)).toHaveValue(stored.url));
    expect(within(dialog()).queryByRole('combobox', { name: M.webhookAtMobiles })).not.toBeInTheDocument();
    expect(within(dialog()).getByPlaceholderText(M.webhookSecretPlaceholder)).toHaveValue(SECRET_MASK);
    expect(within(dialog()).getByText('ou_abc')).toBeInTheDocument();
    await submit();
    await waitFor(() => expect(m.callsTo('/webhooks/edit')).toHaveLength(1));
    expect(m.callsTo('/webhooks/edit')[0]!.body).toMatchObject({ uuid: stored.uuid, type: 'feishu', secret: SECRET_MASK, at_mobiles: [], at_user_ids: ['ou_abc'], at_all: 1 });
    const name = within(dialog()).getByPlaceholderText(M.webhookNamePlaceholder);
    await waitFor(() => expect(name.closest('.ant-form-item')).toHaveTextContent(M.webhookNameTaken));
    expect(closed()).toBe(0);
  });

  it('needs at least one kind, and sends no mentions for "other"', async () => {
    const { m } = setup({ ...stored, type: 'other', at_user_ids: [], at_all: 0 });
    await waitFor(() => expect(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder)).toHaveValue(stored.url));
    expect(within(dialog()).queryByRole('switch', { name: M.webhookAtAll })).not.toBeInTheDocument();
    await userEvent.click(within(dialog()).getByRole('checkbox', { name: M.monitorServiceExpired }));
    await submit();
    await shows(M.webhookKindsRequired);
    expect(m.callsTo('/webhooks/edit')).toHaveLength(0);
    await userEvent.click(within(dialog()).getByRole('checkbox', { name: M.monitorRouterOffline }));
    await submit();
    await waitFor(() => expect(m.callsTo('/webhooks/edit')).toHaveLength(1));
    expect(m.callsTo('/webhooks/edit')[0]!.body).toMatchObject({ type: 'other', kinds: ['router_offline'], at_mobiles: [], at_user_ids: [], at_all: 0 });
  });
});
