import { M, removeNetworkMember, type NetworkMember } from '@hublink/contract';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import { useNetworkMutation } from './api';
import { routerDetailPath } from './labels';

/**
 * A member's actions: remove (with the edit right); view details, kick offline and restart service only
 * while it is online. Kick and restart need the device gateway and are not offered yet (即将上线).
 */
export function MemberActions({ networkNumber, member, canEdit }: { networkNumber: string; member: NetworkMember; canEdit: boolean }) {
  const remove = useNetworkMutation(removeNetworkMember);
  const online = member.online !== 0;
  return (
    <Space size={0} wrap>
      {online && (
        <Button type="link" size="small" href={routerDetailPath(member.router_name)} target="_blank" rel="noopener noreferrer">
          {M.networkMemberDetail}
        </Button>
      )}
      {online && (
        <Tooltip title={M.networkSoon}>
          <Button type="link" size="small" disabled>
            {M.networkKick}
          </Button>
        </Tooltip>
      )}
      {online && (
        <Tooltip title={M.networkSoon}>
          <Button type="link" size="small" disabled>
            {M.networkRespawn}
          </Button>
        </Tooltip>
      )}
      {canEdit && (
        <Popconfirm title={M.networkConfirmRemove} onConfirm={() => remove.mutateAsync({ network_number: networkNumber, router_name: member.router_name })}>
          <Button type="link" size="small" danger aria-label={`${M.networkRemove} ${member.router_name}`}>
            {M.networkRemove}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}
