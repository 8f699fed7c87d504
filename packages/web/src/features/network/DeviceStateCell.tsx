import { fmt, type MemberDeviceState, networkMessages } from '@hublink/contract';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { orDash } from './labels';

const COMMAND_KIND: Record<string, string> = { kill: networkMessages.networkKick, restart: networkMessages.networkRespawn, resend_config: networkMessages.networkCommandResend };
const COMMAND_STATE: Record<string, { text: string; color: string }> = {
  queued: { text: networkMessages.networkCommandQueuedState, color: 'default' },
  sent: { text: networkMessages.networkCommandSent, color: 'processing' },
  done: { text: networkMessages.networkCommandDone, color: 'success' },
  failed: { text: networkMessages.networkCommandFailed, color: 'error' },
};

/** A member's config version and whether its device applied it, and its latest command's state (errors in a tooltip). */
export function DeviceStateCell({ state }: { state: MemberDeviceState | undefined }) {
  if (!state) return <>{orDash('')}</>;
  const applied =
    state.config_version === 0
      ? null
      : state.applied_error !== ''
        ? { text: networkMessages.networkConfigFailed, color: 'error', tip: state.applied_error }
        : state.applied_version === state.config_version
          ? { text: networkMessages.networkConfigApplied, color: 'success', tip: '' }
          : { text: networkMessages.networkConfigPending, color: 'default', tip: '' };
  const cmd = state.command;
  const cmdState = cmd ? (COMMAND_STATE[cmd.state] ?? { text: cmd.state, color: 'default' }) : null;
  return (
    <Flex vertical gap={2}>
      {applied && (
        <Flex gap={4} align="center" wrap>
          <Typography.Text type="secondary">{fmt(networkMessages.networkConfigVersion, { version: state.config_version })}</Typography.Text>
          <Tooltip title={applied.tip || undefined}>
            <Tag color={applied.color} bordered={false}>
              {applied.text}
            </Tag>
          </Tooltip>
        </Flex>
      )}
      {cmd && cmdState && (
        <Tooltip title={cmd.error || cmd.update_time}>
          <Flex gap={4} align="center" wrap>
            <Typography.Text type="secondary">{fmt(networkMessages.networkCommandLabel, { kind: COMMAND_KIND[cmd.kind] ?? cmd.kind })}</Typography.Text>
            <Tag color={cmdState.color} bordered={false}>
              {cmdState.text}
            </Tag>
          </Flex>
        </Tooltip>
      )}
    </Flex>
  );
}
