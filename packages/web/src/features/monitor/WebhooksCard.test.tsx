import { M, SECRET_MASK, type DeliveryItem, type RoleAuth, type WebhookItem } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { WebhooksCard } from './WebhooksCard';

const OK_BUTTON = /确\s*定|OK/;
const hook = (over: Partial<WebhookItem>): WebhookItem => ({
  uuid: '6f1c2d3e-4a5b-4c6d-8e7f-0a1b2c3d4e5f',
  name: '运维值班群',
  type: 'dingtalk',
  url: 'https://oapi.dingtalk.com/robot/send?access_token=t',
  secret: SECRET_MASK,
  kinds: ['router_offline', 'router_online'],
  at_mobiles: ['13800138000'],
  at_user_ids: [],
  at_all: 0,
  is_default: 1,
  last_status: 'sent',
  last_attempts: 1,
  last_time: '2026-11-30 10:00:00',
  last_error: '',
  ...over,
});
const HOOKS = [hook({}), hook({ uuid: '0b6a3f8e-3f0c-4a59-9d43-1c1d2e3f4a5b', name: '值班二群', type: 'wecom', kinds: ['service_expired'], at_mobiles: [], at_all: 1, is_default: 0, last_status: 'failed', last_error: '企业微信返回错误码 45009：api freq out of limit' })];
const failed: DeliveryItem = {
  id: 41,
  channel: 'webhook',
  target: '值班二群',
  webhook_uuid: HOOKS[1]!.uuid,
  title: '【监控告警】设备离线：gw-01',
  status: 'failed',
  attempts: 3,
  error: '企业微信返回错误码 45009：api freq out of limit',
  create_time: '2026-11-30 10:00:00',
  update_time: '2026-11-30 10:03:00',
};

function setup(extra: Answers = {}, user = mainUser) {
  session.setUser(user);
  const m = mockApi({ '/webhooks/lists': ok(HOOKS), '/webhooks/test': ok(null, M.webhookTestOk), '/webhooks/deliveries': ok([failed]), '/webhooks/resend': ok(null, M.deliveryResent), ...extra });
  renderWithProviders(<WebhooksCard />, { route: '/monitor/setting' });
  return m;
}

const rowOf = (name: string) => screen.getByText(name).closest('tr')!;

describe('WebhooksCard', () => {
  it('lists the webhooks with type, kinds, mentions and how the last delivery went', async () => {
    setup();
    await shows('运维值班群');
    const first = within(rowOf('运维值班群'));
    expect(first.getByText(M.webhookTypeDingtalk)).toBeInTheDocument();
    expect(first.getByText(M.monitorRouterOffline)).toBeInTheDocument();
    expect(first.getByText('@13800138000')).toBeInTheDocument();
    expect(first.getByText(M.deliveryStatusSent)).toBeInTheDocument();
    expect(first.getByText(M.webhookDefaultTag)).toBeInTheDocument();
    const second = within(rowOf('值班二群'));
    expect(second.getByText(`@${M.webhookMentionAll}`)).toBeInTheDocument();
    expect(second.getByText(M.deliveryStatusFailed)).toBeInTheDocument();
  });

  it('says when there is none', async () => {
    setup({ '/webhooks/lists': ok([]) });
    await shows(M.webhookEmpty);
  });

  it('offers a retry when the list fails to load', async () => {
    const m = setup({ '/webhooks/lists': refused('服务繁忙', 500) });
    await shows(M.webhookLoadFailed);
    const calls = m.callsTo('/webhooks/lists').length;
    await userEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(m.callsTo('/webhooks/lists').length).toBeGreaterThan(calls));
  });

  it('tests one webhook after confirmation', async () => {
    const m = setup();
    await shows('值班二群');
    await userEvent.click(within(rowOf('值班二群')).getByRole('button', { name: M.webhookTest }));
    await shows(M.webhookTestConfirm);
    expect(m.callsTo('/webhooks/test')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/webhooks/test')).toHaveLength(1));
    expect(m.callsTo('/webhooks/test')[0]!.body).toEqual({ uuid: HOOKS[1]!.uuid });
  });

  it("opens a webhook's deliveries with the provider's answer and resends a failed one", async () => {
    const m = setup();
    await shows('值班二群');
    await userEvent.click(within(rowOf('值班二群')).getByRole('button', { name: M.webhookDeliveries }));
    await shows('投递记录：值班二群');
    await waitFor(() => expect(m.callsTo('/webhooks/deliveries')[0]?.query).toMatchObject({ uuid: HOOKS[1]!.uuid, page: '1' }));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByText(failed.title);
    expect(within(drawer).getAllByText(failed.error).length).toBeGreaterThan(0);
    await userEvent.click(within(drawer).getByRole('button', { name: M.deliveryResend }));
    await shows(M.deliveryResendConfirm);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/webhooks/resend')).toHaveLength(1));
    expect(m.callsTo('/webhooks/resend')[0]!.body).toEqual({ id: 41 });
  });

  it('shows an empty deliveries list', async () => {
    setup({ '/webhooks/deliveries': ok([]) });
    await shows('运维值班群');
    await userEvent.click(within(rowOf('运维值班群')).getByRole('button', { name: M.webhookDeliveries }));
    await shows(M.deliveryEmpty);
  });

  it('gives a role that may only view the list and the deliveries, without changes', async () => {
    const role: RoleAuth = {
      'easylink.router': { create: 1, edit: 1, delete: 1 },
      'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
      monitor: { view: 1, create: 0, edit: 0, delete: 0 },
    };
    setup({}, { ...mainUser, ram: 1, role });
    await shows('值班二群');
    expect(screen.queryByRole('button', { name: M.webhookCreate })).not.toBeInTheDocument();
    expect(within(rowOf('值班二群')).queryByRole('button', { name: M.webhookTest })).not.toBeInTheDocument();
    await userEvent.click(within(rowOf('值班二群')).getByRole('button', { name: M.webhookDeliveries }));
    const drawer = await screen.findByRole('dialog');
    await within(drawer).findByText(failed.title);
    expect(within(drawer).queryByRole('button', { name: M.deliveryResend })).not.toBeInTheDocument();
  });
});
