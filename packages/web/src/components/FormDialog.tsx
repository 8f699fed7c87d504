import { BM, LIMITS } from '@hublink/contract';
import { Form, Modal, type FormInstance } from 'antd';
import { useLayoutEffect, type ReactNode } from 'react';
import { useGuardedBusy } from './useGuardedBusy';

export interface FormDialogProps<V> {
  title: ReactNode;
  open: boolean;
  onClose: () => void;
  /** Resolves true when the dialog should close (the call succeeded). */
  onSubmit: (values: V) => Promise<boolean>;
  initialValues?: Partial<V>;
  children: ReactNode;
  /** The submit guard: loading resets after this long even if the call never answers (spec 1 §9). */
  guardMs?: number;
  width?: number;
  okText?: string;
  form?: FormInstance<V>;
}

/**
 * antd Modal + Form with the submit guard and loading state every dialog of the console needs. Its
 * second button says 取消: leaving discards what was typed (read-only dialogs say 关闭, BM.close).
 */
export function FormDialog<V extends object>({
  title,
  open,
  onClose,
  onSubmit,
  initialValues,
  children,
  guardMs = LIMITS.submitGuardMs,
  width,
  okText,
  form: given,
}: FormDialogProps<V>) {
  const [own] = Form.useForm<V>();
  const form = given ?? own;
  const { busy, run } = useGuardedBusy(guardMs);

  // Each opening starts from the initial values of that moment. A form given by the dialog keeps its
  // store while the dialog is closed: its fields, unmounted with preserve=false, fall back there to the
  // initial values they closed with, and a Form mounting over a store keeps the store's values, so newer
  // initial values (the detail refetched after a save) would be lost. This runs before the dialogs' own
  // effects, which may then set fields.
  useLayoutEffect(() => {
    if (!open) return;
    form.resetFields();
    if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the values of the moment it opens, not later ones
  }, [open, form]);

  const submit = (values: V) =>
    run(async () => {
      if (await onSubmit(values)) onClose();
    });

  return (
    <Modal title={title} open={open} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden width={width} okText={okText} cancelText={BM.cancel}>
      <Form<V> form={form} layout="vertical" initialValues={initialValues} onFinish={(v) => void submit(v)} preserve={false} requiredMark={false}>
        {children}
      </Form>
    </Modal>
  );
}
