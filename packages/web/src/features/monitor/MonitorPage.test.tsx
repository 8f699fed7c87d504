import { M, type MonitorConfig, type RoleAuth } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { savedConfig } from '../../test/ldapFixtures';
import { mockApi, ok, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import MonitorPage from './MonitorPage';

const on: MonitorConfig = {
  enable: 1,
  portal_confirm: 1,
  email_confirm: 0,
  webhook_confirm: 0,
  router_online: 1,
  router_offline: 1,
  service_expired: 0,
  pop_connect: 0,
  router: [{ router_name: 'hq01', note: '总部' }],
};

const routers = [
  { router_name: 'hq01', note: '总部' },
  { router_name: 'shop01', note: '门店' },
  { router_name: 'shop02', note: '门店' },
];

const OK_BUTTON = /确\s*定|OK/;

function setup(config: MonitorConfig, extra: Answers = {}, user = mainUser) {
  session.setUser(user);
  const m = mockApi({
    '/monitor/config': ok(config),
    '/monitor/routers': ok(routers),
    '/webhook/config': ok(null),
    '/webhooks/lists': ok([]),
    '/monitor/enable': ok(null, M.monitorStarted),
    '/monitor/close': ok(null, M.monitorClosed),
    '/monitor/setting': ok(null, M.saved),
    ...extra,
  });
  renderWithProviders(<MonitorPage />, { route: '/monitor/setting' });
  return m;
}

const role = (monitor: Partial<RoleAuth['monitor']>): RoleAuth => ({
  'easylink.router': { create: 1, edit: 1, delete: 1 },
  'easylink.network': { create: 1, edit: 1, delete: 1, network: [] },
  monitor: { view: 1, create: 0, edit: 0, delete: 0, ...monitor },
});
const subAccount = (monitor: Partial<RoleAuth['monitor']>) => ({ ...mainUser, ram: 1 as const, role: role(monitor) });

const confirm = () => userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));

describe('MonitorPage', () => {
  it('shows the intro while monitoring is off, and starts it after confirmation, then reloads', async () => {
    const m = setup({ ...on, enable: 0, router: [] });
    await shows(M.monitorIntroText);
    await userEvent.click(screen.getByRole('button', { name: new RegExp(M.monitorStart) }));
    await shows(M.monitorStartConfirm);
    expect(m.callsTo('/monitor/enable')).toHaveLength(0);
    // The reload waits until the toast was seen: on a loaded machine the settings page's first render
    // could outlast the toast's few seconds.
    let reload!: () => void;
    const toastSeen = new Promise<void>((resolve) => (reload = resolve));
    m.answer('/monitor/config', async () => {
      await toastSeen;
      return ok(on);
    });
    await confirm();
    await waitFor(() => expect(m.callsTo('/monitor/enable')).toHaveLength(1));
    await shows(M.monitorStarted);
    reload();
    await shows(M.monitorChannels);
    expect(m.callsTo('/monitor/config').length).toBeGreaterThan(1);
  });

  it('offers a sub-account without the create right no start', async () => {
    setup({ ...on, enable: 0 }, {}, subAccount({}));
    await shows(M.monitorIntroText);
    expect(screen.getByRole('button', { name: new RegExp(M.monitorStart) })).toBeDisabled();
  });

  it('keeps the portal message on, and resets email and webhook with their hints when they cannot be used', async () => {
    setup(on, {}, { ...mainUser, user_email: '' });
    const portal = await screen.findByRole('switch', { name: M.monitorPortal });
    expect(portal).toBeChecked();
    expect(portal).toBeDisabled();
    const email = screen.getByRole('switch', { name: M.monitorEmail });
    await userEvent.click(email);
    await shows(M.monitorBindEmailFirst);
    expect(email).not.toBeChecked();
    const webhook = screen.getByRole('switch', { name: M.monitorWebhook });
    await waitFor(() => expect(webhook).toBeEnabled());
    await userEvent.click(webhook);
    await shows(M.monitorWebhookFirst);
    expect(webhook).not.toBeChecked();
  });

  it('switches email and webhook on when the account has an email and a webhook is configured', async () => {
    setup(on, { '/webhook/config': ok({ type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send?access_token=x', secret: '******' }) });
    const email = await screen.findByRole('switch', { name: M.monitorEmail });
    await userEvent.click(email);
    expect(email).toBeChecked();
    const webhook = screen.getByRole('switch', { name: M.monitorWebhook });
    await waitFor(() => expect(webhook).toBeEnabled());
    await userEvent.click(webhook);
    expect(webhook).toBeChecked();
  });

  it('saves the switches, the kinds and the chosen devices after confirmation', async () => {
    const m = setup(on);
    await shows('shop01');
    await userEvent.click(within(screen.getByRole('group', { name: M.monitorKinds })).getByRole('checkbox', { name: M.monitorPopConnect }));
    await userEvent.click(within(screen.getByText('shop01').closest('tr')!).getByRole('checkbox'));
    await shows('已选 2 / 3 台');
    await userEvent.click(screen.getByRole('button', { name: M.monitorSave }));
    await shows(M.monitorSaveConfirm);
    expect(m.callsTo('/monitor/setting')).toHaveLength(0);
    await confirm();
    await waitFor(() => expect(m.callsTo('/monitor/setting')).toHaveLength(1));
    expect(m.callsTo('/monitor/setting')[0]!.body).toEqual({
      portal_confirm: 1,
      email_confirm: 0,
      webhook_confirm: 0,
      router_online: 1,
      router_offline: 1,
      service_expired: 0,
      pop_connect: 1,
      router: ['hq01', 'shop01'],
    });
    await shows(M.saved);
  });

  it('keeps one kind of alert ticked: unticking the last warns (请至少选择一项) and leaves it ticked', async () => {
    setup({ ...on, router_online: 0 });
    await shows('shop01');
    const kinds = within(screen.getByRole('group', { name: M.monitorKinds }));
    const offline = kinds.getByRole('checkbox', { name: M.monitorRouterOffline });
    expect(offline).toBeChecked();
    await userEvent.click(offline);
    await shows('请至少选择一项');
    expect(offline).toBeChecked();
    // With another ticked, it can go.
    await userEvent.click(kinds.getByRole('checkbox', { name: M.monitorPopConnect }));
    await userEvent.click(offline);
    await waitFor(() => expect(offline).not.toBeChecked());
  });

  it('tags the device a private LDAP syncs through and links to the LDAP form with ldapType (spec 3 §2.5)', async () => {
    setup(on, { '/ldap/config': ok({ enable: 1, data: savedConfig({ mode: 'private', router_name: 'shop01', network_number: '', network_name: '' }), notice: '' }) });
    const link = await screen.findByRole('link', { name: M.monitorLdapEdit });
    expect(link).toHaveAttribute('href', '/router/ldap_edit?ldapType=edit');
    expect(within(screen.getByText('shop01').closest('tr')!).getByText('LDAP')).toBeInTheDocument();
    expect(within(screen.getByText('hq01').closest('tr')!).queryByText('LDAP')).not.toBeInTheDocument();
  });

  it('searches the devices and selects all that the search shows', async () => {
    const m = setup(on);
    await shows('shop02');
    await userEvent.type(screen.getByRole('searchbox', { name: M.monitorRouterSearch }), '门店');
    await waitFor(() => expect(screen.queryByText('hq01')).not.toBeInTheDocument());
    await userEvent.click(screen.getByRole('checkbox', { name: M.monitorRoutersAll }));
    await shows('已选 3 / 3 台');
    await userEvent.click(screen.getByRole('button', { name: M.monitorSave }));
    await confirm();
    await waitFor(() => expect(m.callsTo('/monitor/setting')).toHaveLength(1));
    expect((m.callsTo('/monitor/setting')[0]!.body!.router as string[]).toSorted()).toEqual(['hq01', 'shop01', 'shop02']);
  });

  it('closes monitoring after confirmation and shows the intro again', async () => {
    const m = setup(on);
    await userEvent.click(await screen.findByRole('button', { name: M.monitorClose }));
    await shows(M.monitorCloseConfirm);
    m.answer('/monitor/config', ok({ ...on, enable: 0 }));
    await confirm();
    await waitFor(() => expect(m.callsTo('/monitor/close')).toHaveLength(1));
    await shows(M.monitorIntroText);
  });

  it('shows a sub-account with view only the configuration, without save, close or switches to press', async () => {
    setup(on, {}, subAccount({}));
    await shows('hq01');
    expect(screen.queryByRole('button', { name: M.monitorSave })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: M.monitorClose })).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: M.monitorEmail })).toBeDisabled();
    expect(within(screen.getByRole('group', { name: M.monitorKinds })).getByRole('checkbox', { name: M.monitorRouterOnline })).toBeDisabled();
    // It still opens the dialogs to read them.
    expect(screen.getByRole('button', { name: new RegExp(M.monitorContacts) })).toBeEnabled();
  });

  it('shows a sub-account with edit and delete the save and close buttons', async () => {
    setup(on, {}, subAccount({ edit: 1, delete: 1 }));
    expect(await screen.findByRole('button', { name: M.monitorSave })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: M.monitorClose })).toBeInTheDocument();
  });
});
