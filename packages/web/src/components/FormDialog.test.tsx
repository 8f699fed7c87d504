import { M } from '@hublink/contract';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider, Form, Input } from 'antd';
import enUS from 'antd/locale/en_US';
import { describe, expect, it, vi } from 'vitest';
import { FormDialog } from './FormDialog';

describe('FormDialog', () => {
  // Under another locale antd would say 'Cancel': the word is the dialog's rule, not the locale's.
  it('says 取消 (its input is discarded), whatever antd locale is set, and closes without submitting', async () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn(async () => true);
    render(
      <ConfigProvider locale={enUS}>
        <FormDialog title="t" open onClose={onClose} onSubmit={onSubmit}>
          <Form.Item name="x">
            <Input aria-label="x" />
          </Form.Item>
        </FormDialog>
      </ConfigProvider>,
    );
    const cancel = await screen.findByRole('button', { name: new RegExp(`^${[...M.cancel].join('\\s*')}$`) });
    await userEvent.type(screen.getByLabelText('x'), 'typed');
    await userEvent.click(cancel);
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
