import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_TOKEN_PATTERN, CODE, M } from '@hublink/contract';
import { addRouters, launch, screenshot, screenshotAtWidths, settled, signedInTenant, startServer, type Server } from './support';
import { OK } from './dialogs';

/** A call to the API with a personal API token, as a script would make it. */
async function callWith(server: Server, token: string, method: 'GET' | 'POST', path: string, body?: unknown) {
  const res = await fetch(`${server.url}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, env: (await res.json()) as { code: number; msg: string; data?: unknown } };
}

describe('personal API tokens in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let token = '';

  beforeAll(async () => {
    server = await startServer();
    browser = await launch();
    ({ page } = await signedInTenant(server, browser, { username: `tok${Date.now() % 1_000_000}`, password: 'secret123', phone: `136${String(Date.now()).slice(-8)}`, nickname: '令牌测试' }));
    await addRouters(server, page, ['gw_tok01']);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('starts empty, creates a read-only token and shows it once with its warning', async () => {
    await page.goto(`${server.url}/account/api_token`);
    await page.getByText(M.empty).first().waitFor();
    await page.getByRole('button', { name: new RegExp(M.apiTokenCreate) }).click();
    const dialog = page.getByRole('dialog');
    await settled(page);
    await dialog.getByRole('button', { name: OK }).click();
    await dialog.getByText(M.apiTokenNameRequired).last().waitFor();
    await dialog.getByPlaceholder(M.apiTokenNameRequired).fill('部署脚本');
    await dialog.getByRole('button', { name: OK }).click();

    const shown = page.getByRole('dialog', { name: M.apiTokenShownTitle });
    await shown.getByText(M.apiTokenShownWarning).waitFor();
    token = (await shown.getByTestId('api-token-value').innerText()).trim();
    expect(token).toMatch(API_TOKEN_PATTERN);
    await settled(page);
    await screenshot(page, 'api-token-shown', shown.getByText(M.apiTokenShownWarning));
    await shown.getByRole('button', { name: M.apiTokenSaved }).click();
    await shown.waitFor({ state: 'hidden' });
    // Listed by its first characters only; the token itself is nowhere on the page any more.
    await page.getByRole('cell', { name: '部署脚本' }).waitFor();
    await page.getByText(`${token.slice(0, 12)}…`).waitFor();
    expect(await page.content()).not.toContain(token);
  });

  it('works against the API: reads, is refused a change, and the list shows its last use', async () => {
    const nets = await callWith(server, token, 'GET', '/network/lists?page=1');
    expect(nets).toMatchObject({ status: 200, env: { code: 200 } });
    const create = await callWith(server, token, 'POST', '/network/create', { network_name: '脚本网络', center: ['gw_tok01'], point: [] });
    expect(create.env).toMatchObject({ code: CODE.forbidden, msg: M.deniedPermission });

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: '部署脚本' });
    await row.getByText(M.apiTokenStateActive).waitFor();
    await expect.poll(() => row.getByText(M.apiTokenNeverUsed).count()).toBe(0);
    await screenshotAtWidths(page, 'api-token-list', page.getByRole('cell', { name: '部署脚本' }));
  });

  it('revokes after the confirmation, and the token stops at once', async () => {
    const row = page.getByRole('row').filter({ hasText: '部署脚本' });
    await row.getByRole('button', { name: M.apiTokenRevoke }).click();
    await page.getByText(M.apiTokenRevokeConfirm).waitFor();
    await page.locator('.ant-popconfirm').getByRole('button', { name: OK }).click();
    await page.getByText(M.apiTokenRevoked).first().waitFor();
    await page.getByRole('cell', { name: '部署脚本' }).waitFor({ state: 'detached' });
    const after = await callWith(server, token, 'GET', '/network/lists?page=1');
    expect(after).toMatchObject({ status: 401, env: { code: CODE.tokenInvalid, msg: M.apiTokenInvalid } });
  });
});
