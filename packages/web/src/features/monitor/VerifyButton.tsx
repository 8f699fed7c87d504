import { CODE, fmt, LIMITS, monitorMessages, sendContactValidation } from '@hublink/contract';
import { Button, Popconfirm } from 'antd';
import { useEffect, useState } from 'react';
import { useMonitorMutation } from './api';

const SECOND_MS = 1000;

/**
 * Sends a contact its validation mail after '是否确定发送邮箱验证?', then counts down
 * LIMITS.contactEmailCooldownSeconds before it may send again (spec 3 §4); a failed send ends the
 * countdown at once. The server refuses a second mail within the same time.
 */
export function VerifyButton({ uuid }: { uuid: string }) {
  const send = useMonitorMutation(sendContactValidation);
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((n) => n - 1), SECOND_MS);
    return () => clearTimeout(timer);
  }, [left]);

  const confirm = async () => {
    setLeft(LIMITS.contactEmailCooldownSeconds);
    const env = await send.mutateAsync({ uuid });
    if (env.code !== CODE.ok) setLeft(0);
  };

  if (left > 0) {
    return (
      <Button type="link" size="small" disabled>
        {fmt(monitorMessages.contactResendIn, { n: left })}
      </Button>
    );
  }
  return (
    <Popconfirm title={monitorMessages.contactSendConfirm} onConfirm={confirm}>
      <Button type="link" size="small" loading={send.isPending}>
        {monitorMessages.contactSendVerify}
      </Button>
    </Popconfirm>
  );
}
