import { fmt, killUser, type NetworkMember, networkMessages, networkSettingsUiMessages, removeNetworkMember, resetRespawn } from '@hublink/contract';
import { Button, Popconfirm, Space } from 'antd';
import { useNetworkMutation } from './api';
import { routerDetailPath } from '../../components/pageLinks';

export interface MemberActionsProps {
  networkNumber: string;
  member: NetworkMember;
  /** The edit right: remove. */
  canEdit: boolean;
  /** The edit right on a usable network: kick offline and restart service. */
  canSet: boolean;
}

/**
 * A member's actions: remove (with the edit right); view details while it is online; kick offline and
 * restart service while it is online, on a usable network, with the edit right, each after a confirmation
 * (the server answers that the command is queued for the device).
 */
export function MemberActions({ networkNumber, member, canEdit, canSet }: MemberActionsProps) {
  const remove = useNetworkMutation(removeNetworkMember);
  const kick = useNetworkMutation(killUser);
  const respawn = useNetworkMutation(resetRespawn);
  const online = member.online !== 0;
  const target = { network_number: networkNumber, router_name: member.router_name };
  return (
    // Wraps onto a second line where the table is tight, so the columns beside it stay in sight.
    <Space size={0} wrap>
      {online && (
        <Button type="link" size="small" href={routerDetailPath(member.router_name)} target="_blank" rel="noopener noreferrer">
          {networkMessages.networkMemberDetail}
        </Button>
      )}
      {online && canSet && (
        <Popconfirm title={fmt(networkSettingsUiMessages.netSetKickConfirm, { name: member.router_name })} onConfirm={() => kick.mutateAsync(target)}>
          <Button type="link" size="small" aria-label={`${networkMessages.networkKick} ${member.router_name}`}>
            {networkMessages.networkKick}
          </Button>
        </Popconfirm>
      )}
      {online && canSet && (
        <Popconfirm title={fmt(networkSettingsUiMessages.netSetRespawnConfirm, { name: member.router_name })} onConfirm={() => respawn.mutateAsync(target)}>
          <Button type="link" size="small" aria-label={`${networkMessages.networkRespawn} ${member.router_name}`}>
            {networkMessages.networkRespawn}
          </Button>
        </Popconfirm>
      )}
      {canEdit && (
        <Popconfirm title={networkMessages.networkConfirmRemove} onConfirm={() => remove.mutateAsync(target)}>
          <Button type="link" size="small" danger aria-label={`${networkMessages.networkRemove} ${member.router_name}`}>
            {networkMessages.networkRemove}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
