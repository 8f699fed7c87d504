import { fmt, M, type MemberDeviceState } from '@hublink/contract';
import { Flex, Tag, Tooltip, Typography } from 'antd';
import { orDash } from './labels';

const COMMAND_KIND: Record<string, string> = { kill: M.networkKick, restart: M.networkRespawn, resend_config: M.networkCommandResend };
const COMMAND_STATE: Record<string, { text: string; color: string }> = {
  queued: { text: M.networkCommandQueuedState, color: 'default' },
  sent: { text: M.networkCommandSent, color: 'processing' },
  done: { text: M.networkCommandDone, color: 'success' },
  failed: { text: M.networkCommandFailed, color: 'error' },
};

/** A member's config version and whether its device applied it, and its latest command's state (errors in a tooltip). */
export function DeviceStateCell({ state }: { state: MemberDeviceState | undefined }) {
  if (!state) return <>{orDash('')}</>;
  const applied =
    state.config_version === 0
      ? null
      : state.applied_error !== ''
        ? { text: M.networkConfigFailed, color: 'error', tip: state.applied_error }
        : state.applied_version === state.config_version
          ? { text: M.networkConfigApplied, color: 'success', tip: '' }
          : { text: M.networkConfigPending, color: 'default', tip: '' };
  const cmd = state.command;
  const cmdState = cmd ? (COMMAND_STATE[cmd.state] ?? { text: cmd.state, color: 'default' }) : null;
  return (
    <Flex vertical gap={2}>
      {applied && (
        <Flex gap={4} align="center" wrap>
          <Typography.Text type="secondary">{fmt(M.networkConfigVersion, { version: state.config_version })}</Typography.Text>
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
            <Typography.Text type="secondary">{fmt(M.networkCommandLabel, { kind: COMMAND_KIND[cmd.kind] ?? cmd.kind })}</Typography.Text>
            <Tag color={cmdState.color} bordered={false}>
              {cmdState.text}
            </Tag>
          </Flex>
        </Tooltip>
      )}
    </Flex>
  );
}
