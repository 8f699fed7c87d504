import { M, SECRET_MASK } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { session } from '../../api/session';
import { mainUser } from '../../test/sessionFixtures';
import { mockApi, ok, refused, type Answers } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { WebhookDialog } from './WebhookDialog';

function setup(extra: Answers = {}) {
  session.setUser(mainUser);
  const m = mockApi({
    '/webhook/config': ok(null),
    '/webhook/setting': ok(null, M.webhookSaved),
    '/webhook/test': ok(null, M.webhookTestOk),
    '/webhook/delete': ok(null, M.deleted),
    ...extra,
  });
  let closed = 0;
  renderWithProviders(<WebhookDialog open onClose={() => closed++} />, { route: '/monitor/setting' });
  return { m, closed: () => closed };
}

const dialog = () => screen.getByRole('dialog');
/** antd spaces a two-character Chinese label ('保 存'). */
const label = (text: string) => new RegExp(`^${[...text].join('\\s*')}$`);
const OK_BUTTON = /确\s*定|OK/;

describe('WebhookDialog', () => {
  it('starts on DingTalk, needs a URL, hides the secret for WeCom, and saves', async () => {
    const { m, closed } = setup();
    await waitFor(() => expect(within(dialog()).getByText(M.webhookTypeDingtalk)).toBeInTheDocument());
    expect(within(dialog()).getByPlaceholderText(M.webhookSecretPlaceholder)).toBeInTheDocument();
    expect(within(dialog()).queryByRole('button', { name: label(M.webhookDelete) })).not.toBeInTheDocument();
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.save) }));
    await shows(M.webhookUrlRequired);
    await userEvent.type(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder), 'ftp://robot');
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.save) }));
    await shows(M.webhookUrlInvalid);
    expect(m.callsTo('/webhook/setting')).toHaveLength(0);

    await userEvent.click(within(dialog()).getByRole('combobox', { name: M.webhookType }));
    await userEvent.click(await screen.findByTitle(M.webhookTypeWecom));
    await waitFor(() => expect(within(dialog()).queryByPlaceholderText(M.webhookSecretPlaceholder)).not.toBeInTheDocument());
    const url = within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder);
    await userEvent.clear(url);
    await userEvent.type(url, 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k');
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.save) }));
    await waitFor(() => expect(m.callsTo('/webhook/setting')).toHaveLength(1));
    expect(m.callsTo('/webhook/setting')[0]!.body).toEqual({ type: 'wecom', url: 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k', secret: '' });
    await waitFor(() => expect(closed()).toBe(1));
  });

  it('shows the stored webhook with its secret masked; tests it after confirmation, the mask standing for the secret', async () => {
    const stored = { type: 'feishu' as const, url: 'https://open.feishu.cn/open-apis/bot/v2/hook/x', secret: SECRET_MASK };
    const { m } = setup({ '/webhook/config': ok(stored), '/webhook/test': refused(`测试失败：飞书返回错误码 19021：sign match fail`) });
    await waitFor(() => expect(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder)).toHaveValue(stored.url));
    expect(within(dialog()).getByPlaceholderText(M.webhookSecretPlaceholder)).toHaveValue(SECRET_MASK);
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.webhookTest) }));
    await shows(M.webhookTestConfirm);
    expect(m.callsTo('/webhook/test')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/webhook/test')).toHaveLength(1));
    expect(m.callsTo('/webhook/test')[0]!.body).toEqual(stored);
    await shows('测试失败：飞书返回错误码 19021：sign match fail');
    // The test button is usable again once the answer is in.
    await waitFor(() => expect(within(dialog()).getByRole('button', { name: label(M.webhookTest) })).toBeEnabled());
  });

  it('shows a URL the server refuses as not public under the URL, for a save and for a test, and stays open', async () => {
    const { m, closed } = setup({ '/webhook/setting': refused(M.webhookUrlPrivate), '/webhook/test': refused(M.webhookUrlPrivate) });
    const url = await within(dialog()).findByPlaceholderText(M.webhookUrlPlaceholder);
    const item = () => url.closest('.ant-form-item');
    await userEvent.type(url, 'http://169.254.169.254/latest/meta-data/');
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.save) }));
    await waitFor(() => expect(m.callsTo('/webhook/setting')).toHaveLength(1));
    await waitFor(() => expect(item()).toHaveTextContent(M.webhookUrlPrivate));
    expect(closed()).toBe(0);

    await userEvent.clear(url);
    await userEvent.type(url, 'http://2130706433/hook');
    await waitFor(() => expect(item()).not.toHaveTextContent(M.webhookUrlPrivate));
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.webhookTest) }));
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/webhook/test')).toHaveLength(1));
    await waitFor(() => expect(item()).toHaveTextContent(M.webhookUrlPrivate));
  });

  it('deletes the webhook after confirmation', async () => {
    const { m, closed } = setup({ '/webhook/config': ok({ type: 'dingtalk', url: 'https://oapi.dingtalk.com/robot/send?access_token=x', secret: '' }) });
    await userEvent.click(await within(dialog()).findByRole('button', { name: label(M.webhookDelete) }));
    await shows(M.webhookDeleteConfirm);
    expect(m.callsTo('/webhook/delete')).toHaveLength(0);
    await userEvent.click(screen.getByRole('button', { name: OK_BUTTON }));
    await waitFor(() => expect(m.callsTo('/webhook/delete')).toHaveLength(1));
    await waitFor(() => expect(closed()).toBe(1));
  });

  it('a missing type gets the spec’s message (请输入类型) and sends nothing', async () => {
    // A stored webhook whose type this console does not know leaves the type empty.
    const { m } = setup({ '/webhook/config': ok({ type: '' as never, url: 'https://example.com/hook', secret: '' }) });
    await waitFor(() => expect(within(dialog()).getByPlaceholderText(M.webhookUrlPlaceholder)).toHaveValue('https://example.com/hook'));
    await userEvent.click(within(dialog()).getByRole('button', { name: label(M.save) }));
    await shows('请输入类型');
    expect(m.callsTo('/webhook/setting')).toHaveLength(0);
  });
});
