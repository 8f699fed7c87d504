import { BM, fmt, LIMITS } from '@hublink/contract';
import { Input, Modal, Typography } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useGuardedBusy } from './useGuardedBusy';

export interface ConfirmByTypingProps {
  open: boolean;
  title: ReactNode;
  /** What the user must type exactly (a member's name, '确认操作'). */
  phrase: string;
  /** The warning above the input. */
  description?: ReactNode;
  okText?: string;
  /** Runs when the phrase matches and OK is clicked; resolves false to keep the dialog open. */
  onConfirm: () => Promise<boolean | void> | boolean | void;
  onClose: () => void;
  /** The submit guard: loading resets after this long even if the call never answers. */
  guardMs?: number;
}

/**
 * A dangerous action's confirmation: OK stays disabled until the given phrase is typed exactly
 * (spec 3 §5: delete a member by typing its name, bulk delete by typing 确认操作).
 */
export function ConfirmByTyping({ open, title, phrase, description, okText, onConfirm, onClose, guardMs = LIMITS.submitGuardMs }: ConfirmByTypingProps) {
  const [typed, setTyped] = useState('');
  const { busy, run } = useGuardedBusy(guardMs);
  useEffect(() => {
    if (!open) setTyped('');
  }, [open]);

  const matches = typed.trim() === phrase;

  const confirm = () => {
    if (!matches) return;
    void run(async () => {
      if ((await onConfirm()) !== false) onClose();
    });
  };

  const placeholder = fmt(BM.typeToConfirm, { phrase });
  return (
    <Modal
      title={title}
      open={open}
      onCancel={onClose}
      onOk={confirm}
      okText={okText}
      cancelText={BM.cancel}
      okButtonProps={{ danger: true, disabled: !matches }}
      confirmLoading={busy}
      destroyOnHidden
    >
      {description && <Typography.Paragraph>{description}</Typography.Paragraph>}
      <Input value={typed} onChange={(e) => setTyped(e.target.value)} placeholder={placeholder} aria-label={placeholder} onPressEnter={confirm} autoFocus />
    </Modal>
  );
}
