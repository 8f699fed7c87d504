import { BM, fmt, type RouterDetail, routerMessages } from '@hublink/contract';
import { Card, Empty, Flex, Typography } from 'antd';
import { Link } from 'react-router';
import { networkDetailPath } from '../../../components/pageLinks';

/** The networks the member is in, each linking to its detail, and a link to all networks (spec 3 §2). */
export function NetworksCard({ networks }: { networks: RouterDetail['network'] }) {
  return (
    <Card variant="borderless" title={routerMessages.routerNetworksTitle} extra={<Link to="/network/lists">{routerMessages.routerNetworksAll}</Link>}>
      {networks.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={BM.empty} />
      ) : (
        <Flex vertical gap={8} role="list" aria-label={routerMessages.routerNetworksTitle}>
          {networks.map((n) => (
            <Flex key={n.network_number} role="listitem" justify="space-between" gap={16}>
              <Link to={networkDetailPath(n.network_number, n.network_name)}>{n.network_name}</Link>
              <Typography.Text type="secondary">{fmt(routerMessages.routerNetworkMembers, { n: n.network_member_count })}</Typography.Text>
            </Flex>
          ))}
        </Flex>
      )}
    </Card>
  );
}
