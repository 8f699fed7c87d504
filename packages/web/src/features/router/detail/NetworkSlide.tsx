import { fmt, networkStatus, type RouterDetail, routerMessages } from '@hublink/contract';
import { Badge, Descriptions, Flex, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { useApiQuery } from '../../../api/hooks';
import { networkDetailPath } from '../../../components/pageLinks';
import { shortNetworkName } from './shortNetworkName';

type Membership = RouterDetail['network'][number];

/** The member's links in one network (as edge or as center) and whether its config took effect: its own view of the status, not the whole network's. */
function useMemberState(routerName: string, networkNumber: string) {
  const status = useApiQuery(networkStatus, { network_number: networkNumber, router_name: routerName, link_page: 1, page_size: 1 }, { on204: 'stay', quiet: true });
  const data = status.data?.data;
  if (!data) return undefined;
  const key = routerName.toLowerCase();
  const device = Object.entries(data.device).find(([n]) => n.toLowerCase() === key)?.[1];
  return { up: data.link_up ?? 0, total: data.link_count, device };
}

function LinkState({ state }: { state: NonNullable<ReturnType<typeof useMemberState>> }) {
  if (state.total === 0) return <Badge status="default" text={routerMessages.routerStatusNoLink} />;
  const all = state.up === state.total;
  return <Badge status={all ? 'success' : state.up > 0 ? 'warning' : 'error'} text={`${all ? routerMessages.routerStatusLinkUp : routerMessages.routerStatusLinkDown} ${state.up}/${state.total}`} />;
}

function ConfigState({ device }: { device: NonNullable<ReturnType<typeof useMemberState>>['device'] }) {
  if (!device || device.config_version === 0) return <Typography.Text type="secondary">-</Typography.Text>;
  if (device.applied_error) return <Badge status="error" text={routerMessages.routerStatusFailed} title={device.applied_error} />;
  return device.applied_version >= device.config_version ? <Badge status="success" text={routerMessages.routerStatusApplied} /> : <Badge status="processing" text={routerMessages.routerStatusPending} />;
}

/** One network of the carousel: its name (cut to LIMITS.statusNetworkName, whole in the tooltip), members, links, config. */
export function NetworkSlide({ routerName, network }: { routerName: string; network: Membership }) {
  const state = useMemberState(routerName, network.network_number);
  const short = shortNetworkName(network.network_name);
  return (
    <Flex vertical gap={8} style={{ padding: '4px 4px 28px' }}>
      <Tooltip title={short === network.network_name ? undefined : network.network_name}>
        <Link to={networkDetailPath(network.network_number, network.network_name)} aria-label={network.network_name} style={{ fontSize: 16, fontWeight: 600 }}>
          {short}
        </Link>
      </Tooltip>
      <Typography.Text type="secondary">{fmt(routerMessages.routerNetworkMembers, { n: network.network_member_count })}</Typography.Text>
      <Descriptions size="small" column={1}>
        <Descriptions.Item label={routerMessages.routerStatusLink}>{state ? <LinkState state={state} /> : '-'}</Descriptions.Item>
        <Descriptions.Item label={routerMessages.routerStatusConfig}>{state ? <ConfigState device={state.device} /> : '-'}</Descriptions.Item>
      </Descriptions>
    </Flex>
  );
}
