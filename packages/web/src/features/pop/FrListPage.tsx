import { BM, fmt, FR_STATUS, type FrItem, listFr, networkMessages, popMessages } from '@hublink/contract';
import { Button, Flex, List, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { toast } from '../../api/notify';
import { usePagedList } from '../../api/usePagedList';
import { useStepBackWhenEmpty } from '../../api/useStepBackWhenEmpty';
import dayjs from '../../components/dayjs';
import { networkDetailPath } from '../../components/pageLinks';
import { PageContainer } from '../../components/PageContainer';
import { PagedTable } from '../../components/PagedTable';
import { popEditPath } from './links';

/** A time of the list (seconds, spec 2 §9) as a date. */
export const dateOf = (seconds: number) => dayjs.unix(seconds).format('YYYY-MM-DD');

/** The networks using a resource and its areas, under its row. */
function FrDetail({ fr }: { fr: FrItem }) {
  return (
    <Flex gap={24} wrap>
      <div style={{ minWidth: 240, flex: 1 }}>
        <Typography.Text strong>{popMessages.popColNetworks}</Typography.Text>
        <List
          size="small"
          dataSource={fr.network}
          renderItem={(n) => (
            <List.Item>
              <Flex justify="space-between" gap={8} wrap style={{ width: '100%' }}>
                <span>
                  <Link to={networkDetailPath(n.network_number)}>{n.network_name}</Link>
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    {n.network_number}
                  </Typography.Text>
                </span>
                <Link to={popEditPath(n.network_number)}>{BM.routePopEdit}</Link>
              </Flex>
            </List.Item>
          )}
        />
      </div>
      <div style={{ minWidth: 200, flex: 1 }}>
        <Typography.Text strong>{popMessages.popColAreas}</Typography.Text>
        <List
          size="small"
          dataSource={fr.area}
          renderItem={(a) => (
            <List.Item>
              <Flex justify="space-between" gap={16} style={{ width: '100%' }}>
                <span>{a.name}</span>
                <Typography.Text type="secondary">
                  {popMessages.popColBandwidth} {a.bandwidth}Mbps
                </Typography.Text>
              </Flex>
            </List.Item>
          )}
        />
      </div>
    </Flex>
  );
}

/** /network/fr_lists (spec 2 §2): the tenant's POP resources, each row expanding to its networks and areas. */
export default function FrListPage() {
  const list = usePagedList(listFr);
  useStepBackWhenEmpty(list);
  const columns = [
    { title: popMessages.popColName, dataIndex: 'name', key: 'name' },
    { title: popMessages.popColCreate, dataIndex: 'create_time', key: 'create_time', render: dateOf },
    { title: popMessages.popColExpire, dataIndex: 'expire_time', key: 'expire_time', render: dateOf },
    {
      title: popMessages.popColExpireDay,
      dataIndex: 'expire_day',
      key: 'expire_day',
      render: (d: number) => (d === 0 ? <Typography.Text type="danger">{popMessages.popExpired}</Typography.Text> : fmt(popMessages.popDays, { n: d })),
    },
    {
      title: popMessages.popColStatus,
      dataIndex: 'status',
      key: 'status',
      render: (s: number) => (s === FR_STATUS.valid ? <Tag color="success">{popMessages.popStatusValid}</Tag> : <Tag color="processing">{popMessages.popStatusProcessing}</Tag>),
    },
    { title: popMessages.popColNetworks, key: 'networks', render: (_: unknown, r: FrItem) => r.network.length },
    {
      title: networkMessages.networkColActions,
      key: 'actions',
      fixed: 'right' as const,
      render: () => (
        <Button type="link" size="small" onClick={() => toast.warning(popMessages.popDelayRefused)}>
          {popMessages.popDelay}
        </Button>
      ),
    },
  ];
  return (
    <PageContainer>
      <PagedTable<FrItem>
        rowKey="network_fr_id"
        columns={columns}
        list={list}
        searchable
        searchPlaceholder={popMessages.popSearch}
        scroll={{ x: 'max-content' }}
        expandable={{ expandedRowRender: (fr) => <FrDetail fr={fr} /> }}
      />
    </PageContainer>
  );
}
