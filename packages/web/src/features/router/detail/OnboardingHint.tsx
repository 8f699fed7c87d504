import { fmt, ROUTER_TYPE, type RouterDetail, CM } from '@hublink/contract';
import { Alert, Typography } from 'antd';

/**
 * For a hardware router that has never connected (issue 30): where it dials, the command to run and
 * where its secret goes. Gone once the device has signed in once.
 */
export function OnboardingHint({ detail }: { detail: RouterDetail }) {
  if (detail.router_type !== ROUTER_TYPE.hardware || detail.online_status === 1 || detail.online_time) return null;
  const url = window.location.origin;
  return (
    <Alert
      type="warning"
      showIcon
      title={CM.onboardTitle}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{CM.onboardIntro}</Typography.Paragraph>
          <Typography.Paragraph code copyable style={{ marginBottom: 8, wordBreak: 'break-all' }}>
            {fmt(CM.onboardCommand, { url, name: detail.router_name })}
          </Typography.Paragraph>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {fmt(CM.onboardAddress, { url })}
            <br />
            {CM.onboardSecret}
          </Typography.Paragraph>
        </>
      }
    />
  );
}
