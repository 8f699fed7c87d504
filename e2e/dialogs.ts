import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { M } from '@hublink/contract';
import { settled, WAIT_MS } from './support';

/** antd's OK button (its two-character label gets a space inside: '确 定'). */
export const OK = /确\s?定|OK/;

/**
 * What the network-detail specs do with its dialogs: open an entry of the 配置 menu, pick a select's
 * option, submit and wait for the success message, confirm a question. `current` gives the spec's page
 * (made in its beforeAll, after the helpers).
 */
export function dialogHelpers(current: () => Page) {
  const dialog = () => current().getByRole('dialog');
  return {
    dialog,
    /** Opens one entry of the 配置 menu and waits for its dialog. */
    async openConfig(label: string, exact = false) {
      await current().getByRole('button', { name: new RegExp(M.networkConfig) }).click();
      await current().getByRole('menuitem', { name: label, exact }).click();
      await dialog().waitFor();
      await settled(current());
    },
    /** Picks an option of an antd select by its label; the list closes, so it covers nothing below. */
    async choose(select: Locator, option: string) {
      await select.click();
      await current().locator(`.ant-select-item-option[title="${option}"]:visible`).click();
      await expect.poll(() => current().locator('.ant-select-dropdown:visible').count()).toBe(0);
    },
    /** Submits the dialog and waits for the server's success message and the dialog to close. */
    async submit(success: string, label: RegExp = OK) {
      // A settings dialog's 保存前预览 grows the dialog when its answer comes in, moving the button: a
      // click as it lands can miss. Clicked once the preview (if any) has answered.
      await expect.poll(() => dialog().locator('[aria-busy="true"]').count(), { timeout: WAIT_MS }).toBe(0);
      await dialog().getByRole('button', { name: label }).click();
      await current().getByText(success).first().waitFor();
      await dialog().waitFor({ state: 'hidden' });
    },
    /** Confirms the open popconfirm or confirmation dialog that asks `question`. */
    async confirm(question: string) {
      await current().getByText(question).waitFor();
      await settled(current());
      await current().locator('.ant-popover, .ant-modal-confirm').filter({ hasText: question }).getByRole('button', { name: OK }).last().click();
      await current().getByText(question).waitFor({ state: 'hidden' });
    },
  };
}
