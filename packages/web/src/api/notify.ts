import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { LIMITS } from '@hublink/contract';

let instance: MessageInstance | null = null;

/** The App provider hands over its themed message instance; before that the static one is used. */
export const bindNotifier = (m: MessageInstance | null) => {
  instance = m;
};

const target = () => instance ?? message;

/** Toasts of spec 1 §8: 5 seconds each. */
export const toast = {
  success: (text: string) => void target().success(text, LIMITS.toastSeconds),
  error: (text: string) => void target().error(text, LIMITS.toastSeconds),
  warning: (text: string) => void target().warning(text, LIMITS.toastSeconds),
};
