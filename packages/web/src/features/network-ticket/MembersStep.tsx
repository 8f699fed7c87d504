import { fmt, networkTicketMessages, popRegionName } from '@hublink/contract';
import { Empty, Flex, Tabs, Transfer, Typography } from 'antd';
import { offeredTo, usedCount, withRegion, type Assignment } from './assignment';

/**
 * Step 2: one tab per chosen region, each moving members between the pool and the region's list;
 * a member sits in one region at most, and the used count says how many have left the pool.
 */
export function MembersStep({
  regions,
  members,
  assignment,
  active,
  onActive,
  onChange,
}: {
  regions: readonly string[];
  members: readonly string[];
  assignment: Assignment;
  active: string;
  onActive: (region: string) => void;
  onChange: (a: Assignment) => void;
}) {
  if (members.length === 0) return <Empty description={networkTicketMessages.ticketNoMembers} />;
  return (
    <Flex vertical gap={8}>
      <Typography.Text type="secondary" aria-live="polite">
        {fmt(networkTicketMessages.ticketUsed, { used: usedCount(assignment), total: members.length })}
      </Typography.Text>
      <Tabs
        activeKey={active}
        onChange={onActive}
        items={regions.map((region) => ({
          key: region,
          label: popRegionName(region),
          children: (
            <Transfer
              dataSource={offeredTo(region, members, assignment).map((name) => ({ key: name, title: name }))}
              targetKeys={assignment[region] ?? []}
              onChange={(keys) => onChange(withRegion(assignment, region, keys.map(String)))}
              render={(item) => item.title}
              titles={[networkTicketMessages.ticketPool, popRegionName(region)]}
              showSearch
              styles={{ section: { width: 'min(260px, calc(50vw - 90px))', height: 320 } }}
            />
          ),
        }))}
      />
    </Flex>
  );
}
