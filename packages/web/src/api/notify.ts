import { message } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import { LIMITS } from '@hublink/contract';

let instance: MessageInstance | null = null;

/** The App provider hands over its themed message instance; before that the static one is used. */
export const bindNotifier = (m: MessageInstance | null) => {
  instance = m;
};

const target = () => instance ?? message;

/**
 * Refusals and warnings on screen: each belongs to the page it was shown on. One shown in the
 * task that also moves to another page (a failure that sends the user to login) is 'fresh' and goes
 * with the user; the rest are cleared when the page changes (clearStaleToasts).
 */
const shown = new Set<{ fresh: boolean; hide: () => void }>();

function refusal(kind: 'error' | 'warning', text: string) {
  // antd answers a function that closes this one message (a test's stand-in may answer nothing).
  const hide = target()[kind](text, LIMITS.toastSeconds) as (() => void) | undefined;
  if (typeof hide !== 'function') return;
  const entry = { fresh: true, hide };
  shown.add(entry);
  setTimeout(() => {
    entry.fresh = false;
  }, 0);
  void Promise.resolve(hide as unknown as PromiseLike<unknown>).then(() => shown.delete(entry));
}

/** Toasts of spec 1 §8: 5 seconds each. */
export const toast = {
  success: (text: string) => void target().success(text, LIMITS.toastSeconds),
  error: (text: string) => refusal('error', text),
  warning: (text: string) => refusal('warning', text),
};

/** Called when the page changes: the refusals of the page left behind go (success toasts stay). */
export function clearStaleToasts() {
  for (const entry of shown) {
    if (entry.fresh) continue;
    entry.hide();
    shown.delete(entry);
  }
}
