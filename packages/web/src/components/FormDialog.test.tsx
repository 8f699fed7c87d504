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

  // A dialog given its form (to watch fields) keeps the store between openings; initial values that
  // changed while it was closed (the detail refetched after a save) must still be what it opens with.
  it('opens with the initial values of the moment it opens, not those it closed with', async () => {
    function Harness({ initial, open }: { initial: string; open: boolean }) {
      const [form] = Form.useForm<{ x: string }>();
      return (
        <FormDialog title="t" open={open} onClose={() => undefined} onSubmit={async () => true} initialValues={{ x: initial }} form={form}>
          <Form.Item name="x">
            <Input aria-label="x" />
          </Form.Item>
        </FormDialog>
      );
    }
    const { rerender } = render(<Harness initial="before" open />);
    expect(await screen.findByLabelText('x')).toHaveValue('before');
    rerender(<Harness initial="before" open={false} />);
    await waitFor(() => expect(screen.queryByLabelText('x')).toBeNull());
    rerender(<Harness initial="after" open={false} />);
    rerender(<Harness initial="after" open />);
    expect(await screen.findByLabelText('x')).toHaveValue('after');
  });
});
