import { fmt, LIMITS, networkInfo, networkMessages } from '@hublink/contract';
import { keepPreviousData } from '@tanstack/react-query';
import { Flex, Pagination, Typography } from 'antd';
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { PageLoading } from '../../components/PageLoading';
import { TopologyChart } from './TopologyChart';

const PAGE = LIMITS.maxPageLimit;

/**
 * The topology graph of a page of members (100; every center on each page) with their links, asked of
 * the server and polled like the status: a network of 5,000 members draws a readable graph in a moment
 * instead of 5,000 nodes (issue 34). A smaller network fits on one page and shows no pager.
 */
export function TopologyView({ networkNumber }: { networkNumber: string }) {
  const [page, setPage] = useState(1);
  const query = { network_number: networkNumber, member_page: page, page_size: PAGE };
  const info = useApiQuery(networkInfo, query, { refetchInterval: LIMITS.statusPollMs, refetchIntervalInBackground: false, placeholderData: keepPreviousData, quiet: true });
  const d = info.data?.data;
  if (!d) return <PageLoading />;
  const members = [...d.centers, ...d.member.filter((m) => m.member_type !== 'center')];
  return (
    <>
      {d.member_count > PAGE && (
        <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
          <Typography.Text type="secondary">
            {fmt(networkMessages.networkTopologyPaged, { from: (page - 1) * PAGE + 1, to: Math.min(page * PAGE, d.member_count), total: d.member_count })}
          </Typography.Text>
          <Pagination simple size="small" current={page} pageSize={PAGE} total={d.member_count} onChange={setPage} showSizeChanger={false} />
        </Flex>
      )}
      <TopologyChart members={members} links={d.link} />
    </>
  );
}
