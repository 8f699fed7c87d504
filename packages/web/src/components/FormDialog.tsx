import { LIMITS } from '@hublink/contract';
import { Form, Modal, type FormInstance } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';

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

/** antd Modal + Form with the submit guard and loading state every dialog of the console needs. */
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
  const [busy, setBusy] = useState(false);
  const guard = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => () => clearTimeout(guard.current), []);

  const submit = async (values: V) => {
    if (busy) return;
    setBusy(true);
    guard.current = setTimeout(() => setBusy(false), guardMs);
    try {
      if (await onSubmit(values)) onClose();
    } finally {
      clearTimeout(guard.current);
      setBusy(false);
    }
  };

  return (
    <Modal title={title} open={open} onCancel={onClose} onOk={() => form.submit()} confirmLoading={busy} destroyOnHidden width={width} okText={okText}>
      <Form<V> form={form} layout="vertical" initialValues={initialValues} onFinish={(v) => void submit(v)} preserve={false} requiredMark={false}>
        {children}
      </Form>
    </Modal>
  );
}
