import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fmt, M } from '@hublink/contract';
import { launch, screenshotAtWidths, settled, signedInTenant, startServer, type Server } from './support';

/**
 * Third-party sign-in sources in Chromium (spec 3 §2 /router/auth_source): a tenant with the feature
 * creates, edits, disables, enables, copies and deletes a source, with screenshots of the empty state,
 * the list and the dialog at three widths.
 */
describe('sign-in sources in Chromium', () => {
  let server: Server;
  let browser: Browser;
  let page: Page;
  let tenantId: number;
  const username = `src${Date.now() % 1_000_000}`;
  const phone = `136${String(Date.now()).slice(-8)}`;
  const password = 'secret123';

  beforeAll(async () => {
    server = await startServer({ HUBLINK_EGRESS_IPS: '203.0.113.7,203.0.113.8' });
    browser = await launch();
    // The operator's CLI will set the feature flag; the test grants it in the database.
    ({ page, tenantId } = await signedInTenant(
      server,
      browser,
      { username, password, phone, nickname: '认证源管理' },
      { context: { permissions: ['clipboard-read', 'clipboard-write'] }, grant: { software_auth_source: 1 } },
    ));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const dialog = () => page.getByRole('dialog');
  const okButton = () => dialog().getByRole('button', { name: /确\s?定|OK/ });
  const rowOf = (name: string) => page.getByRole('row', { name: new RegExp(name) });
  /** Answers the Popconfirm on screen. */
  const confirm = async (text: string) => {
    const pop = page.locator('.ant-popconfirm').filter({ hasText: text });
    await pop.waitFor();
    await pop.getByRole('button', { name: /确\s?定|OK/ }).click();
  };

  it('shows the menu entry and the empty state with the ID code', async () => {
    await page.goto(`${server.url}/router/auth_source`);
    await page.getByText(M.authSourceEmptyTitle).waitFor();
    await page.getByText(M.authSourceEmptyText).waitFor();
    await expect(page.locator('.ant-menu').getByText(M.routeAuthSource).count()).resolves.toBeGreaterThan(0);
    const row = await server.ctx.db.selectFrom('auth_source_code').select('code').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    await page.getByText(row.code, { exact: true }).waitFor();
    await screenshotAtWidths(page, 'auth-source-empty', page.getByText(M.authSourceEmptyTitle), 860);
  });

  it('creates an enterprise WeChat source through the dialog, whose rules show first', async () => {
    await page.getByRole('button', { name: new RegExp(M.authSourceCreate) }).first().click();
    await settled(page);
    await okButton().click();
    await dialog().getByText(M.authSourceTypeRequired).first().waitFor();
    await dialog().getByText(M.authSourceNameRequired).first().waitFor();
    await dialog().getByRole('combobox', { name: M.authSourceFieldType }).click();
    await page.getByTitle(M.authSourceTypeWechat).click();
    await dialog().getByPlaceholder(M.authSourceNameRequired).fill('总部企业微信');
    await dialog().getByPlaceholder(M.authSourceFieldAppIdWechat).fill('ww0123456789abcdef');
    await dialog().getByPlaceholder(M.authSourceAgentIdRequired).fill('1000002');
    await dialog().getByPlaceholder(M.authSourceAppSecretRequired).fill('wecom-secret-0001');
    await expect(dialog().getByRole('textbox', { name: M.authSourceFieldWhiteIp }).inputValue()).resolves.toBe('203.0.113.7;203.0.113.8');
    await expect(dialog().getByRole('textbox', { name: M.authSourceFieldAuthDomainWechat }).inputValue()).resolves.toBe(new URL(server.url).host);
    await screenshotAtWidths(page, 'auth-source-dialog', dialog().getByPlaceholder(M.authSourceAppSecretRequired), 860);
    await okButton().click();
    await page.getByText(M.saved).first().waitFor();
    await rowOf('总部企业微信').getByText(M.authSourceStatusOn).waitFor();
  });

  it('creates a DingTalk source and shows both in the list', async () => {
    await page.getByRole('button', { name: new RegExp(M.authSourceCreate) }).click();
    await settled(page);
    await dialog().getByRole('combobox', { name: M.authSourceFieldType }).click();
    await page.getByTitle(M.authSourceTypeDingtalk).click();
    await dialog().getByPlaceholder(M.authSourceNameRequired).fill('钉钉登录');
    await dialog().getByPlaceholder(M.authSourceFieldAppIdDingtalk).fill('dingappkey0001');
    await okButton().click();
    await dialog().getByText(M.authSourceCorpIdRequired).first().waitFor();
    await dialog().getByPlaceholder(M.authSourceFieldCorpId).fill('ding0corp0001');
    await dialog().getByPlaceholder(M.authSourceAppSecretRequired).fill('dingtalk-secret-1');
    await okButton().click();
    await rowOf('钉钉登录').waitFor();
    // Without the success toasts of the two creates over the top bar.
    await page.reload();
    await screenshotAtWidths(page, 'auth-source-list', rowOf('钉钉登录'), 860);
  });

  it('edits a source: its type fixed, its secret masked and kept', async () => {
    const before = await server.ctx.db.selectFrom('auth_source').select(['id', 'app_secret']).where('name', '=', '总部企业微信').executeTakeFirstOrThrow();
    await rowOf('总部企业微信').getByRole('button', { name: M.authSourceActionEdit }).click();
    await settled(page);
    const secret = dialog().getByPlaceholder(M.authSourceAppSecretRequired);
    // A mask that says a secret is set and nothing of it (issue 32).
    await expect.poll(() => secret.inputValue()).toBe('*'.repeat(12));
    await expect(dialog().getByRole('combobox', { name: M.authSourceFieldType }).isDisabled()).resolves.toBe(true);
    await dialog().getByPlaceholder(M.authSourceNameRequired).fill('分公司企业微信');
    await okButton().click();
    await rowOf('分公司企业微信').waitFor();
    const after = await server.ctx.db.selectFrom('auth_source').select('app_secret').where('id', '=', before.id).executeTakeFirstOrThrow();
    expect(after.app_secret).toBe(before.app_secret);
  });

  it('disables and enables a source, each after its confirmation', async () => {
    await rowOf('分公司企业微信').getByRole('button', { name: M.authSourceActionDisable }).click();
    await confirm(M.authSourceConfirmDisable);
    await rowOf('分公司企业微信').getByText(M.authSourceStatusOff).waitFor();
    await rowOf('分公司企业微信').getByRole('button', { name: M.authSourceActionEnable }).click();
    await confirm(M.authSourceConfirmEnable);
    await rowOf('分公司企业微信').getByText(M.authSourceStatusOn).waitFor();
  });

  it('copies what a member needs to sign in with a source', async () => {
    const { code } = await server.ctx.db.selectFrom('auth_source_code').select('code').where('tenant_id', '=', tenantId).executeTakeFirstOrThrow();
    await rowOf('钉钉登录').getByRole('button', { name: M.authSourceActionCopy }).click();
    await page.getByText(M.authSourceCopied).first().waitFor();
    await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(fmt(M.authSourceCopyText, { code, name: '钉钉登录', type: M.authSourceTypeDingtalk }));
  });

  it('deletes both sources after the confirmation that it cannot be undone, back to the empty state', async () => {
    for (const name of ['钉钉登录', '分公司企业微信']) {
      await rowOf(name).getByRole('button', { name: M.authSourceActionDelete }).click();
      await confirm(M.authSourceConfirmDelete);
      await expect.poll(() => rowOf(name).count()).toBe(0);
    }
    await page.getByText(M.authSourceEmptyTitle).waitFor();
    expect(await server.ctx.db.selectFrom('auth_source').select('id').where('tenant_id', '=', tenantId).execute()).toEqual([]);
  });
});
