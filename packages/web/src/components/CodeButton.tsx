import { BM, fmt, LIMITS } from '@hublink/contract';
import { Button, type ButtonProps } from 'antd';
import { useEffect, useRef, useState } from 'react';

const SECOND_MS = 1000;

export interface CodeButtonProps extends Omit<ButtonProps, 'onClick' | 'loading' | 'children'> {
  /** Sends the code; resolves true when it went out. False (or a throw) ends the countdown at once. */
  onSend: () => Promise<boolean>;
  /** Countdown length; the contact email verification uses LIMITS.contactEmailCooldownSeconds. */
  seconds?: number;
}

/**
 * The shared "get code" button (spec 1 §4): disabled during a countdown labelled 'N秒后重试', then back
 * to '获取验证码'. The countdown starts on click, so a second click cannot send twice; a failed send
 * resets it.
 */
export function CodeButton({ onSend, seconds = LIMITS.codeCooldownSeconds, disabled, ...rest }: CodeButtonProps) {
  const [left, setLeft] = useState(0);
  const [sending, setSending] = useState(false);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (left <= 0) return;
    const t = setTimeout(() => setLeft((n) => n - 1), SECOND_MS);
    return () => clearTimeout(t);
  }, [left]);

  const send = async () => {
    if (left > 0 || sending) return;
    setLeft(seconds);
    setSending(true);
    let sent = false;
    try {
      sent = await onSend();
    } catch {
      sent = false;
    }
    if (!mounted.current) return;
    setSending(false);
    if (!sent) setLeft(0);
  };

  const counting = left > 0;
  return (
    <Button {...rest} disabled={disabled || counting} onClick={() => void send()}>
      {counting ? fmt(BM.codeRetryIn, { n: left }) : BM.getCode}
    </Button>
  );
}

export default CodeButton;
