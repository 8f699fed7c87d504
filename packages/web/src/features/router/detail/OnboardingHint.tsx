import { fmt, M, ROUTER_TYPE, type RouterDetail } from '@hublink/contract';
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
      title={M.onboardTitle}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 8 }}>{M.onboardIntro}</Typography.Paragraph>
          <Typography.Paragraph code copyable style={{ marginBottom: 8, wordBreak: 'break-all' }}>
            {fmt(M.onboardCommand, { url, name: detail.router_name })}
          </Typography.Paragraph>
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {fmt(M.onboardAddress, { url })}
            <br />
            {M.onboardSecret}
          </Typography.Paragraph>
        </>
      }
    />
  );
}
