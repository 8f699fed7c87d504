import { fmt, LIMITS, M } from '@hublink/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { mockApi, ok, refused } from '../../test/mockApi';
import { renderWithProviders, shows } from '../../test/render';
import { AuthSourceDialog } from './AuthSourceDialog';
import { rows, sourceConfig } from './testData';

const okButton = () => screen.getByRole('button', { name: /确\s*定|OK/ });
const dialog = () => screen.getByRole('dialog');

async function pickType(label: string) {
  await userEvent.click(screen.getByRole('combobox', { name: M.authSourceFieldType }));
  await userEvent.click(await screen.findByTitle(label));
}

const api = (extra: Parameters<typeof mockApi>[0] = {}) =>
  mockApi({
    '/auth_source/create': ok({ id: 9 }, M.saved),
    '/auth_source/edit': ok(null, M.saved),
    '/auth_source/info': ok({ ...rows[1]!, app_secret: '************0001' }),
    ...extra,
  });

describe('AuthSourceDialog', () => {
  it('shows the rules of spec 3 §5 before any call, and the fields of the chosen type', async () => {
    const m = api();
    renderWithProviders(<AuthSourceDialog open config={sourceConfig} onClose={() => {}} />);
    await userEvent.click(okButton());
    await shows(M.authSourceTypeRequired);
    await shows(M.authSourceNameRequired);
    await pickType(M.authSourceTypeWechat);
    expect(within(dialog()).getByText(M.authSourceFieldAppIdWechat)).toBeInTheDocument();
    await userEvent.click(okButton());
    await shows(M.authSourceAppIdRequired);
    await shows(M.authSourceAgentIdRequired);
    await shows(M.authSourceAppSecretRequired);
    await userEvent.type(screen.getByPlaceholderText(M.authSourceAgentIdRequired), 'abc');
    await shows(fmt(M.authSourceAgentIdInvalid, { n: LIMITS.authSourceAgentIdMax }));
    // The trusted IPs and the trusted domain of enterprise WeChat, read-only.
    expect(screen.getByRole('textbox', { name: M.authSourceFieldWhiteIp })).toHaveValue('203.0.113.7;203.0.113.8');
    expect(screen.getByRole('textbox', { name: M.authSourceFieldAuthDomainWechat })).toHaveValue('console.example.com');
    expect(screen.getByRole('textbox', { name: M.authSourceCodeLabel })).toHaveValue('K7M2QX9P');

    await pickType(M.authSourceTypeDingtalk);
    expect(screen.queryByPlaceholderText(M.authSourceAgentIdRequired)).toBeNull();
    expect(within(dialog()).getByText(M.authSourceFieldAppIdDingtalk)).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: M.authSourceFieldAuthDomain })).toHaveValue('https://console.example.com/api/v1/auth_source/callback');
    await userEvent.click(okButton());
    await shows(M.authSourceCorpIdRequired);
    expect(m.callsTo('/auth_source/create')).toHaveLength(0);
  });

  it('creates a Feishu source and closes', async () => {
    const m = api();
    const onClose = vi.fn();
    renderWithProviders(<AuthSourceDialog open config={sourceConfig} onClose={onClose} />);
    await pickType(M.authSourceTypeFeishu);
    await userEvent.type(screen.getByPlaceholderText(M.authSourceNameRequired), '飞书登录');
    await userEvent.type(screen.getByPlaceholderText(M.authSourceFieldAppIdFeishu), 'cli_a1b2');
    await userEvent.type(screen.getByPlaceholderText(M.authSourceAppSecretRequired), 'secret-1');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/auth_source/create')).toHaveLength(1));
    expect(m.callsTo('/auth_source/create')[0]!.body).toEqual({ type: 'feishu', name: '飞书登录', app_id: 'cli_a1b2', app_secret: 'secret-1' });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('edits with the type fixed and the masked secret (kept by the server when it comes back unchanged), sending agent_id for enterprise WeChat', async () => {
    const m = api();
    const onClose = vi.fn();
    renderWithProviders(<AuthSourceDialog open record={rows[1]} config={sourceConfig} onClose={onClose} />);
    await shows(M.authSourceEdit);
    await waitFor(() => expect(screen.getByPlaceholderText(M.authSourceAppSecretRequired)).toHaveValue('************0001'));
    expect(screen.getByRole('combobox', { name: M.authSourceFieldType })).toBeDisabled();
    const name = screen.getByPlaceholderText(M.authSourceNameRequired);
    await userEvent.clear(name);
    await userEvent.type(name, '分公司企业微信');
    await userEvent.click(okButton());
    await waitFor(() => expect(m.callsTo('/auth_source/edit')).toHaveLength(1));
    expect(m.callsTo('/auth_source/edit')[0]!.body).toEqual({
      id: 2,
      type: 'wechat',
      name: '分公司企业微信',
      app_id: 'ww0123456789',
      agent_id: '1000002',
      app_secret: '************0001',
    });
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('stays open with the server’s message when the save is refused', async () => {
    const m = api({ '/auth_source/create': refused(M.authSourceNameTaken) });
    const onClose = vi.fn();
    renderWithProviders(<AuthSourceDialog open config={sourceConfig} onClose={onClose} />);
    await pickType(M.authSourceTypeFeishu);
    await userEvent.type(screen.getByPlaceholderText(M.authSourceNameRequired), '飞书登录');
    await userEvent.type(screen.getByPlaceholderText(M.authSourceFieldAppIdFeishu), 'cli_a1b2');
    await userEvent.type(screen.getByPlaceholderText(M.authSourceAppSecretRequired), 'secret-1');
    await userEvent.click(okButton());
    await shows(M.authSourceNameTaken);
    expect(m.callsTo('/auth_source/create')).toHaveLength(1);
    expect(onClose).not.toHaveBeenCalled();
  });
});
